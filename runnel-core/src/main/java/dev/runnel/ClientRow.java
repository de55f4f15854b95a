package dev.runnel;

import java.time.Instant;
import java.util.Optional;

/**
 * A client as the cluster sees it: registered when it started, heartbeating while it runs.
 *
 * @param expiresAt when it counts as dead unless it heartbeats again; a clean stop sets it to the
 *     time of the stop
 * @param stoppedAt when it stopped cleanly, if it did
 * @param metadata a JSON object: its host, process id and queues
 */
public record ClientRow(
        String id, Instant startedAt, Instant heartbeatAt, Instant expiresAt, Optional<Instant> stoppedAt,
        String metadata) {

    /** Whether it counts as running at {@code now}: heartbeating, and not stopped. */
    public boolean aliveAt(Instant now) {
        return stoppedAt.isEmpty() && expiresAt.isAfter(now);
    }
}
