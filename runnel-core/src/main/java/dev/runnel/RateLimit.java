package dev.runnel;

import java.time.Duration;

/**
 * At most {@code jobs} jobs of a queue started in any {@code period}, across all clients: over
 * every window of that length, not only windows aligned to the clock. Enforced in the claim: a
 * job beyond the rate waits, available, costing nothing, until it may start.
 *
 * @param jobs 1 to 100,000
 * @param period at least 1 ms, in whole microseconds
 */
public record RateLimit(int jobs, Duration period) {
    /** The most jobs a rate may allow per period: {@value}, the start times the queue keeps. */
    public static final int MAX_JOBS = 100_000;

    public RateLimit {
        if (jobs < 1 || jobs > MAX_JOBS) {
            throw new IllegalArgumentException("rate limit jobs must be between 1 and " + MAX_JOBS + ", was " + jobs);
        }
        if (period == null || period.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("rate limit period must be at least 1ms, was " + period);
        }
        if (period.toNanos() % 1_000 != 0) {
            throw new IllegalArgumentException("rate limit period must be whole microseconds, was " + period);
        }
    }

    /** The period in microseconds, as stored. */
    public long periodMicros() {
        return period.toNanos() / 1_000;
    }
}
