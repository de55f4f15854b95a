package dev.runnel.driver;

import dev.runnel.JobState;
import java.time.Instant;

/**
 * A non-happy outcome for one job. Internal SPI; nullable fields are left unchanged.
 *
 * @param scheduledAt the next run time (retryable, scheduled, available), or null
 * @param finalizedAt set exactly when {@code state} is final, else null
 * @param error a JSON object appended to the job's errors, or null
 * @param attemptDelta added to the attempt counter: -1 for a snooze, else 0
 * @param from the update applies only while the job is in this state: running, or completed for a
 *     job an at-most-once claim finalised
 */
public record JobSetStateParams(
        long id, JobState state, Instant scheduledAt, Instant finalizedAt, String error, int attemptDelta,
        JobState from) {

    /** An outcome for a job that is running. */
    public JobSetStateParams(long id, JobState state, Instant scheduledAt, Instant finalizedAt, String error,
            int attemptDelta) {
        this(id, state, scheduledAt, finalizedAt, error, attemptDelta, JobState.RUNNING);
    }
}
