package dev.runnel;

import java.time.Duration;

/**
 * Sees every failed attempt of the jobs a client works (see {@link JobFailure.Cause}: a worker's
 * exception, a timeout, args that cannot be decoded, a kind with no worker) and decides what
 * becomes of the job: the default, a retry after a delay of its choosing, or a discard. Not a
 * failure, and not shown to it: a worker's snooze, cancel or discard, an attempt cut short by a
 * stopping client or a cancel request, and a job rescued after its client died.
 *
 * <pre>{@code
 * Runnel.builder().errorHandler(failure -> {
 *     if (failure.exception().orElse(null) instanceof RateLimitedException limited) {
 *         return ErrorHandler.Decision.retryAfter(limited.retryAfter());
 *     }
 *     return ErrorHandler.Decision.useDefault();
 * })
 * }</pre>
 *
 * <p>It runs on the job's thread, before the outcome is written, so it may also report the failure
 * (to an error tracker, say). A handler that throws, or returns null, is logged and the default
 * applies: a failure is never lost to its handler. A retry still counts the attempt: a job out of
 * attempts is discarded whatever the decision. In an {@link Runnel.Delivery#AT_MOST_ONCE} queue
 * every failure ends discarded, so the decision changes nothing but the recorded reason.
 */
@FunctionalInterface
public interface ErrorHandler {
    /** Decides what becomes of the job after {@code failure}. */
    Decision handle(JobFailure failure);

    /** What a handler decided; made by {@link #useDefault()}, {@link #retryAfter} or {@link #discard}. */
    sealed interface Decision {
        /** What would happen without a handler (see {@link JobFailure.Cause}). */
        static Decision useDefault() {
            return new UseDefault();
        }

        /** Retry after {@code delay}, instead of the worker's or the retry policy's delay. */
        static Decision retryAfter(Duration delay) {
            return new RetryAfter(delay);
        }

        /** Discard the job now, {@code reason} added to the attempt's recorded error. */
        static Decision discard(String reason) {
            return new Discard(reason);
        }
    }

    /** See {@link Decision#useDefault()}. */
    record UseDefault() implements Decision {}

    /** See {@link Decision#retryAfter}. */
    record RetryAfter(Duration delay) implements Decision {
        public RetryAfter {
            if (delay == null || delay.isNegative()) {
                throw new IllegalArgumentException("retry delay must not be null or negative, was " + delay);
            }
        }
    }

    /** See {@link Decision#discard}. */
    record Discard(String reason) implements Decision {
        public Discard {
            if (reason == null) {
                throw new IllegalArgumentException("discard reason must not be null");
            }
        }
    }
}
