package dev.runnel.driver;

import dev.runnel.JobState;
import java.util.Set;

/**
 * The states a unique key is held in, as the 8-bit mask both drivers store: one bit per state in
 * the order of the Postgres enum (pending, scheduled, available, running, retryable, completed,
 * cancelled, discarded), the first the highest, so that Postgres reads the integer as
 * {@code bit(8)} with {@code get_bit(mask, position)}. Internal SPI.
 */
public final class UniqueStates {
    private UniqueStates() {}

    /** The mask of {@code states}. */
    public static int mask(Set<JobState> states) {
        int mask = 0;
        for (JobState state : states) {
            mask |= 1 << (7 - position(state));
        }
        return mask;
    }

    private static int position(JobState state) {
        return switch (state) {
            case PENDING -> 0;
            case SCHEDULED -> 1;
            case AVAILABLE -> 2;
            case RUNNING -> 3;
            case RETRYABLE -> 4;
            case COMPLETED -> 5;
            case CANCELLED -> 6;
            case DISCARDED -> 7;
        };
    }
}
