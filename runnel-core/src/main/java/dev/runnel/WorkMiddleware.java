package dev.runnel;

/**
 * Runs around every call of a worker in a client: logging, tracing, a tenant or security context
 * set up from the job's metadata. It sees the job (its id, kind, queue, attempt, metadata and
 * args), may run code before and after {@link Next#proceed()}, which calls the next middleware or,
 * at the end, the worker, and sees the worker's exception as it propagates.
 *
 * <pre>{@code
 * Runnel.builder().workMiddleware((job, next) -> {
 *     long start = System.nanoTime();
 *     try {
 *         next.proceed();
 *     } finally {
 *         log.info("job {} ({}) took {} us", job.id(), job.kind(), (System.nanoTime() - start) / 1_000);
 *     }
 * })
 * }</pre>
 *
 * <p>Several compose in the order they were registered: the first runs outermost. What the
 * outermost middleware throws or returns is what the attempt ends in, exactly as if the worker had
 * done it: an exception fails the attempt (or snoozes, cancels, discards it, see {@link Worker}),
 * a normal return completes it. So a middleware that catches the worker's exception and does not
 * rethrow it completes the job, and one that returns without calling {@code proceed()} completes
 * it without running the worker. {@code proceed()} may be called at most once.
 *
 * <p>It runs on the job's thread, inside the attempt's timeout, and only when a worker is called:
 * a job whose kind has no worker, or whose args cannot be decoded, never reaches it (an
 * {@link ErrorHandler} sees those).
 */
@FunctionalInterface
public interface WorkMiddleware {
    /** Wraps one call of a worker. */
    void work(Job<?> job, Next next) throws Exception;

    /** The rest of the chain: the next middleware, and at the end the worker. */
    @FunctionalInterface
    interface Next {
        /** Runs the rest of the chain; throws what it threw. */
        void proceed() throws Exception;
    }
}
