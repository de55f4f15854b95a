package dev.runnel.internal;

import dev.runnel.JobError;
import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.Links;
import dev.runnel.driver.Times;
import java.time.Duration;
import java.time.Instant;

/**
 * What one attempt of a job ended in, waiting in the completer to be written.
 *
 * @param scheduledAt the next run time for retryable, scheduled or available, else null
 * @param finalizedAt set exactly when {@code state} is final, else null
 * @param error the error to record, or null
 * @param output the output a completed attempt recorded, as JSON, or null
 * @param attemptDelta -1 when the attempt does not count (a snooze, an attempt interrupted by a
 *     stopping client), else 0
 * @param runNanos how long the attempt ran, in nanoseconds (0 for one that never started)
 * @param claimRemoved the job was claimed at most once, so its row is gone: a completion needs no
 *     write, anything else is written back as a new row
 */
public record Outcome(
        JobRow job,
        JobEvent.Type type,
        JobState state,
        Instant scheduledAt,
        Instant finalizedAt,
        JobError error,
        String output,
        int attemptDelta,
        long runNanos,
        boolean claimRemoved) implements Completer.Handed {

    Outcome(JobRow job, JobEvent.Type type, JobState state, Instant scheduledAt, Instant finalizedAt, JobError error,
            int attemptDelta, long runNanos) {
        this(job, type, state, scheduledAt, finalizedAt, error, null, attemptDelta, runNanos, false);
    }

    /** How long the attempt ran. */
    public Duration runTime() {
        return Duration.ofNanos(runNanos);
    }

    /** This outcome itself, handed to the completer where no job's slot waits on it (a job given back). */
    @Override
    public Outcome outcome() {
        return this;
    }

    /**
     * The happy path: completed with nothing else to write, so it takes the simplest statement. A
     * completion with output takes the statement of every other outcome instead.
     */
    public boolean isPlainCompletion() {
        // A linked job's completion releases what waits for it, which the plain statement does not.
        return type == JobEvent.Type.COMPLETED && error == null && output == null && !Links.isLinked(job.metadata());
    }

    /** Whether there is nothing to write: an at-most-once claim removed the job, and it completed. */
    public boolean needsNoWrite() {
        return claimRemoved && type == JobEvent.Type.COMPLETED;
    }

    /**
     * This outcome in an at-most-once queue, whose claim removed the job: a completion needs no
     * write (its output, with no row to keep it, is dropped); a cancel stays a cancel; anything else
     * (failure, snooze, discard) can never run the job again, so it is recorded as discarded. Those
     * two are written back as new rows.
     */
    Outcome atMostOnce(Instant now) {
        if (type == JobEvent.Type.COMPLETED) {
            return new Outcome(job, type, state, scheduledAt, finalizedAt, error, null, 0, runNanos, true);
        }
        if (type == JobEvent.Type.CANCELLED) {
            return new Outcome(job, type, state, null, finalizedAt, error, null, 0, runNanos, true);
        }
        JobError recorded = error != null ? error : new JobError(job.attempt(), now,
                "snoozed in an at-most-once queue, so it is not run again", "");
        return new Outcome(job, JobEvent.Type.DISCARDED, JobState.DISCARDED, null, now, recorded, null, 0, runNanos, true);
    }

    /**
     * What is stored instead of this outcome when the database refused it for its data: the attempt
     * failed, with {@code error} saying why (retried by {@code retryAt}, or discarded when the job is
     * out of attempts); written back as discarded when the claim removed the job.
     */
    Outcome unstorable(Instant now, Instant retryAt, JobError error) {
        if (claimRemoved) {
            return new Outcome(job, JobEvent.Type.DISCARDED, JobState.DISCARDED, null, now, error, null, 0, runNanos, true);
        }
        return failed(job, now, retryAt, error, runNanos);
    }

    /** A completed attempt, with the output it recorded (JSON), or null. */
    static Outcome completed(JobRow job, Instant now, String output, long runNanos) {
        return new Outcome(job, JobEvent.Type.COMPLETED, JobState.COMPLETED, null, now, null, output, 0, runNanos, false);
    }

    static Outcome snoozed(JobRow job, Instant now, Duration snooze, long runNanos) {
        JobState state = snooze.isZero() ? JobState.AVAILABLE : JobState.SCHEDULED;
        return new Outcome(job, JobEvent.Type.SNOOZED, state, Times.plusClamped(now, snooze), null, null, -1, runNanos);
    }

    /**
     * A job claimed ahead that was cancelled, or its client stopping, before it started: cancelled,
     * or back with its attempt uncounted, as if it had been stopped as it began.
     */
    static Outcome unstarted(JobRow job, Instant now, RunningJob.Cause cause, String reason) {
        JobError error = new JobError(job.attempt(), now, reason + " (it had not started)", "");
        return cause == RunningJob.Cause.CANCEL ? cancelled(job, now, error, 0)
                : interrupted(job, now, error, 0);
    }

    static Outcome cancelled(JobRow job, Instant now, JobError error, long runNanos) {
        return new Outcome(job, JobEvent.Type.CANCELLED, JobState.CANCELLED, null, now, error, 0, runNanos);
    }

    static Outcome discarded(JobRow job, Instant now, JobError error, long runNanos) {
        return new Outcome(job, JobEvent.Type.DISCARDED, JobState.DISCARDED, null, now, error, 0, runNanos);
    }

    /** A failed attempt: retried at {@code retryAt}, or discarded when the job is out of attempts. */
    static Outcome failed(JobRow job, Instant now, Instant retryAt, JobError error, long runNanos) {
        if (job.attempt() >= job.maxAttempts()) {
            return discarded(job, now, error, runNanos);
        }
        return new Outcome(job, JobEvent.Type.FAILED, JobState.RETRYABLE, retryAt, null, error, 0, runNanos);
    }

    /**
     * An attempt cut short by a stopping client, through no fault of its own: the job is to run
     * again at once, and the attempt does not count, so that a job on its last attempt is not
     * discarded for a deployment.
     */
    static Outcome interrupted(JobRow job, Instant now, JobError error, long runNanos) {
        return new Outcome(job, JobEvent.Type.FAILED, JobState.RETRYABLE, now, null, error, -1, runNanos);
    }
}
