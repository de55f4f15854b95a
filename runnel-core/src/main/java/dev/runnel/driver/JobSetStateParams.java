package dev.runnel.driver;

import dev.runnel.JobState;
import java.time.Instant;

/**
 * A non-happy outcome for one running job. Internal SPI; nullable fields are left unchanged.
 *
 * @param scheduledAt the next run time (retryable, scheduled, available), or null
 * @param finalizedAt set exactly when {@code state} is final, else null
 * @param error a JSON object appended to the job's errors, or null
 * @param attemptDelta added to the attempt counter: -1 for a snooze, else 0
 */
public record JobSetStateParams(
        long id, JobState state, Instant scheduledAt, Instant finalizedAt, String error, int attemptDelta) {}
