package dev.runnel.driver;

import dev.runnel.PeriodicJob;
import java.time.Instant;
import java.util.List;

/**
 * Stores a periodic job's definition, fully resolved (defaults applied, args and metadata encoded),
 * unless it is stored already. Internal SPI.
 *
 * <p>{@code declared}: a client's code declares it at start. The definition is then stored only
 * when new, or when it differs from what code last declared under this name
 * ({@code declared_hash}), so that an operator's edit, pause or removal stands until the code's
 * definition changes; a removed job comes back then. Otherwise (an operator, at runtime) it is
 * stored when new, removed, or different from the stored one. Either way, when the stored schedule
 * or zone changes, or a removed job comes back, ticks count from {@code now} on; and when the
 * definition was stored, runs on start, and is not paused, one job is enqueued with it, in the
 * same statement or transaction, its metadata holding {@code {"periodic": name, "start": now}}.
 *
 * @param args a JSON object
 * @param metadata a JSON object
 * @param schedule the schedule's text
 * @param zone a zone id
 * @param hash a digest of the whole definition
 */
public record PeriodicUpsertParams(
        String name,
        String kind,
        String args,
        String queue,
        int priority,
        int maxAttempts,
        List<String> tags,
        String metadata,
        String schedule,
        String zone,
        PeriodicJob.CatchUp catchUp,
        boolean runOnStart,
        String hash,
        boolean declared,
        Instant now) {

    public PeriodicUpsertParams {
        tags = List.copyOf(tags);
        now = Times.truncate(now);
    }
}
