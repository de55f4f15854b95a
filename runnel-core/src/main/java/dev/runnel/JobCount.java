package dev.runnel;

/**
 * How many jobs of a queue are in a state.
 *
 * @param exact false when {@code count} is an estimate: see {@link Jobs#counts()}
 */
public record JobCount(String queue, JobState state, long count, boolean exact) {
    /** An exact count. */
    public JobCount(String queue, JobState state, long count) {
        this(queue, state, count, true);
    }
}
