package dev.runnel;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which jobs {@link Runnel#jobList} returns: by state and queue, by ascending id, a page at a time.
 *
 * @param states the states to include; empty means all
 * @param queue only this queue, when given
 * @param afterId only ids greater than this (the last id of the previous page), 0 to start
 * @param limit at most this many, 1 to 10,000
 */
public record JobQuery(Set<JobState> states, Optional<String> queue, long afterId, int limit) {
    /** The default page size: {@value}. */
    public static final int DEFAULT_LIMIT = 100;

    public JobQuery {
        states = states.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(states));
        queue.ifPresent(InsertOptions::validateQueue);
        if (limit < 1 || limit > 10_000) {
            throw new IllegalArgumentException("limit must be between 1 and 10000, was " + limit);
        }
        if (afterId < 0) {
            throw new IllegalArgumentException("afterId must not be negative, was " + afterId);
        }
    }

    /** The first page of all jobs. */
    public static JobQuery all() {
        return new JobQuery(Set.of(), Optional.empty(), 0, DEFAULT_LIMIT);
    }

    /** The first page of jobs in the given states. */
    public static JobQuery inStates(JobState... states) {
        return new JobQuery(Set.of(states), Optional.empty(), 0, DEFAULT_LIMIT);
    }

    public JobQuery queue(String queue) {
        return new JobQuery(states, Optional.of(queue), afterId, limit);
    }

    public JobQuery afterId(long afterId) {
        return new JobQuery(states, queue, afterId, limit);
    }

    public JobQuery limit(int limit) {
        return new JobQuery(states, queue, afterId, limit);
    }
}
