package dev.runnel;

import java.time.Duration;
import java.util.Optional;

/**
 * Works jobs of one kind. Return normally to complete the job; throw {@link JobSnooze},
 * {@link JobCancel} or {@link JobDiscard} to choose another outcome; any other exception fails
 * the attempt, and the job is retried with backoff until it runs out of attempts.
 *
 * <p>Workers run on virtual threads, many at once: they must be thread-safe. A job that is
 * cancelled (timeout, stop, cancel request) is interrupted and {@link Job#isCancelled()} turns
 * true; long work should check it.
 *
 * @param <T> the args type of the kind
 */
@FunctionalInterface
public interface Worker<T extends JobArgs> {
    /** Works one job. */
    void work(Job<T> job) throws Exception;

    /**
     * How long one attempt may run before it is cancelled and failed. Empty (the default) uses the
     * client's job timeout ({@link RunnelBuilder#jobTimeout}); {@link Duration#ZERO} means none.
     */
    default Optional<Duration> timeout(Job<T> job) {
        return Optional.empty();
    }

    /**
     * The delay before the next attempt after {@code job} failed. Empty (the default) uses the
     * client's {@link RetryPolicy}.
     */
    default Optional<Duration> retryDelay(Job<T> job) {
        return Optional.empty();
    }
}
