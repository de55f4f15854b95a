package dev.runnel.driver;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import java.time.Instant;

/**
 * A non-happy outcome for one running job, written only if the job is still running in the
 * attempt numbered {@code attempt}, started at {@code attemptedAt} by client {@code clientId} (see
 * {@link JobCompleteManyParams}). Internal SPI; nullable fields are left unchanged.
 *
 * @param scheduledAt the next run time (retryable, scheduled, available), or null
 * @param finalizedAt set exactly when {@code state} is final, else null
 * @param error a JSON object appended to the job's errors, or null
 * @param attemptDelta added to the attempt counter: -1 when the attempt is not to count (a snooze,
 *     an attempt interrupted by a stopping client), else 0
 * @param output the output of a completed attempt, JSON, stored under the key {@code output} of the
 *     job's metadata (replacing any there), or null to leave the metadata as it is
 * @param linked whether the job is linked ({@link Links#isLinked}): a final outcome then settles
 *     what waits for it, in the same transaction
 */
public record JobSetStateParams(
        long id,
        int attempt,
        Instant attemptedAt,
        String clientId,
        JobState state,
        Instant scheduledAt,
        Instant finalizedAt,
        String error,
        int attemptDelta,
        String output,
        boolean linked) {

    /** An outcome, without output, of the attempt {@code claimed} describes, as the claim returned it. */
    public static JobSetStateParams of(JobRow claimed, JobState state, Instant scheduledAt, Instant finalizedAt,
            String error, int attemptDelta) {
        return new JobSetStateParams(claimed.id(), claimed.attempt(), claimed.attemptedAt().orElseThrow(),
                JobCompleteManyParams.holder(claimed), state, scheduledAt, finalizedAt, error, attemptDelta, null,
                Links.isLinked(claimed.metadata()));
    }

    /** This outcome with {@code output} (JSON) to store. */
    public JobSetStateParams withOutput(String output) {
        return new JobSetStateParams(id, attempt, attemptedAt, clientId, state, scheduledAt, finalizedAt, error,
                attemptDelta, output, linked);
    }
}
