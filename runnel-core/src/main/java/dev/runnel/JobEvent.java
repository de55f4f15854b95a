package dev.runnel;

import java.time.Duration;
import java.util.Optional;

/**
 * What happened to one attempt, delivered to {@link JobListener}s once the outcome is stored.
 *
 * @param type the outcome
 * @param job the job as it was claimed (state {@code running})
 * @param newState the state the job moved to
 * @param error the error recorded for this attempt, if any
 * @param runTime how long the worker ran
 */
public record JobEvent(Type type, JobRow job, JobState newState, Optional<JobError> error, Duration runTime) {
    /** The outcomes of an attempt. */
    public enum Type {
        /** The worker returned normally. */
        COMPLETED,
        /** The attempt failed and the job will be retried. */
        FAILED,
        /** The worker snoozed the job. */
        SNOOZED,
        /** The job was cancelled for good. */
        CANCELLED,
        /** The job was discarded for good (out of attempts, undecodable, or by its worker). */
        DISCARDED
    }
}
