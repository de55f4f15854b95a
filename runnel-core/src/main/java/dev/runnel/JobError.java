package dev.runnel;

import java.time.Instant;

/**
 * One failed attempt of a job, as recorded on the job.
 *
 * @param attempt the attempt that failed (1 for the first)
 * @param at when it failed
 * @param message a readable message
 * @param trace the stack trace, or empty when there was no exception
 */
public record JobError(int attempt, Instant at, String message, String trace) {
    public JobError {
        if (at == null || message == null || trace == null) {
            throw new IllegalArgumentException("JobError fields must not be null");
        }
    }
}
