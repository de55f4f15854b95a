package dev.runnel;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A queue as the cluster knows it: created when a client that works it first started, paused
 * (cluster-wide, until resumed, across restarts) since {@code pausedAt} if it is.
 *
 * @param updatedAt when a client last started working it, or it was last paused or resumed
 * @param metadata a JSON object
 * @param globalLimit the most of its jobs running at once across all clients, if limited
 * @param rateLimit the most of its jobs started per period across all clients, if limited
 * @param keyLimit the most of its jobs running at once per key, if limited
 */
public record QueueRow(String name, Instant createdAt, Instant updatedAt, Optional<Instant> pausedAt, String metadata,
        OptionalInt globalLimit, Optional<RateLimit> rateLimit, Optional<KeyLimit> keyLimit) {
    /** Whether it is paused: no client claims its jobs until it is resumed. */
    public boolean paused() {
        return pausedAt.isPresent();
    }

    /** Whether it has a limit that its claims must keep to. */
    public boolean limited() {
        return globalLimit.isPresent() || rateLimit.isPresent() || keyLimit.isPresent();
    }
}
