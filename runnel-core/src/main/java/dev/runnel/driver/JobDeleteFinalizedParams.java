package dev.runnel.driver;

import dev.runnel.JobState;
import java.time.Instant;

/**
 * Delete up to {@code limit} jobs in final state {@code state} finalized before
 * {@code finalizedBefore}, oldest first. Internal SPI.
 */
public record JobDeleteFinalizedParams(Lease lease, JobState state, Instant finalizedBefore, int limit) {
    public JobDeleteFinalizedParams {
        if (!state.isFinal()) {
            throw new IllegalArgumentException("only final jobs are cleaned, not " + state);
        }
        finalizedBefore = Times.truncate(finalizedBefore);
    }
}
