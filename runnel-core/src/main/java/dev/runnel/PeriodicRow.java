package dev.runnel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.runnel.json.RunnelJson;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A periodic job as the cluster stores it: its definition, flattened, and its progress. Listed by
 * {@link Periodic#list()}.
 *
 * @param args the args of each job, a JSON object
 * @param metadata the definition's own metadata, a JSON object
 * @param schedule the schedule's {@link Schedule#text()}
 * @param zone the schedule's time zone id
 * @param hash a digest of the whole definition: a change of any part changes it
 * @param declared whether a client's code declares it ({@link RunnelBuilder#periodic}), rather
 *     than only an operator at runtime; a declared job an operator removed comes back only once
 *     the code's definition of it changes
 * @param lastTick the last tick enqueued, if any
 * @param firedThrough every tick up to this instant has been dealt with: enqueued, or dropped
 *     (missed, paused, or before the job was added or its schedule changed)
 * @param updatedAt when it was last stored changed, paused or resumed
 */
public record PeriodicRow(
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
        Optional<Instant> pausedAt,
        Optional<Instant> lastTick,
        Instant firedThrough,
        Instant createdAt,
        Instant updatedAt) {

    public PeriodicRow {
        tags = List.copyOf(tags);
    }

    /** Whether it is paused: no tick is enqueued until it is resumed. */
    public boolean paused() {
        return pausedAt.isPresent();
    }

    /** Its schedule, parsed. Throws {@link IllegalArgumentException} if the stored text no longer parses. */
    public Schedule parsedSchedule() {
        return Schedule.parse(schedule, zone);
    }

    /** Its definition, as it would be given to {@link Periodic#upsert} to store it again. */
    public PeriodicJob definition() {
        InsertOptions.Builder options = InsertOptions.builder().queue(queue).priority(priority).maxAttempts(maxAttempts)
                .tags(tags);
        Map<String, Object> meta;
        try {
            meta = RunnelJson.READER.forType(new TypeReference<Map<String, Object>>() {}).readValue(metadata);
        } catch (JsonProcessingException e) {
            throw new RunnelException("stored metadata of periodic job " + name + " is malformed: "
                    + e.getOriginalMessage(), e);
        }
        if (!meta.isEmpty()) {
            options.metadata(meta);
        }
        return PeriodicJob.of(name, parsedSchedule(), kind, args).options(options.build()).catchUp(catchUp)
                .runOnStart(runOnStart);
    }

    /**
     * The next tick after {@code now} it will enqueue, as far as its schedule goes; empty when it is
     * paused or its schedule fires no more. A tick already due is enqueued within about a second.
     */
    public Optional<Instant> nextRun(Instant now) {
        if (paused()) {
            return Optional.empty();
        }
        return parsedSchedule().next(firedThrough.isAfter(now) ? firedThrough : now);
    }
}
