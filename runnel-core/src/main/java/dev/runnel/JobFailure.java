package dev.runnel;

import java.util.Optional;

/**
 * A failed attempt, as an {@link ErrorHandler} sees it before its outcome is decided.
 *
 * @param job the job as it was claimed
 * @param cause what went wrong
 * @param error the error that will be recorded on the job for this attempt
 * @param exception the exception behind it: the worker's (also after a timeout) or the decoder's;
 *     empty for a kind with no worker
 */
public record JobFailure(JobRow job, Cause cause, JobError error, Optional<Throwable> exception) {
    public JobFailure {
        if (job == null || cause == null || error == null || exception == null) {
            throw new IllegalArgumentException("JobFailure fields must not be null");
        }
    }

    /** The kinds of failure, each with what happens by default. */
    public enum Cause {
        /**
         * The worker threw (anything but {@link JobSnooze}, {@link JobCancel} or {@link JobDiscard},
         * which are its own choices, not failures). Default: retried after
         * {@link Worker#retryDelay} or the client's {@link RetryPolicy}.
         */
        EXCEPTION,
        /** The attempt ran past its timeout and its worker, interrupted, threw. Default: as {@link #EXCEPTION}. */
        TIMEOUT,
        /** The job's args could not be decoded as its worker's args type. Default: discarded at once. */
        UNDECODABLE_ARGS,
        /**
         * No worker is registered for the job's kind in this client (another deployment may know
         * it). Default: retried after the client's {@link RetryPolicy}.
         */
        UNKNOWN_KIND
    }
}
