package dev.runnel;

import java.util.List;

/**
 * Runs around every insert call of a client: {@code insert} and {@code insertMany}, on the
 * client's own connection or inside the caller's transaction, once per call with the whole batch,
 * before anything is written. It may change each job's queue, priority, tags and metadata (to
 * carry a trace context or a tenant, say), then calls {@link Next#proceed()}, which writes the
 * batch, or the next middleware's turn, and returns what each insert did. Code after it sees the write's
 * outcome: its results, or its exception as it propagates.
 *
 * <pre>{@code
 * Runnel.builder().insertMiddleware((jobs, next) -> {
 *     for (InsertingJob job : jobs) {
 *         job.metadata().put("tenant", Tenant.current());
 *     }
 *     next.proceed();
 * })
 * }</pre>
 *
 * <p>Several compose in the order they were registered: the first runs outermost. A middleware
 * must call {@code proceed()} exactly once, or throw to refuse the insert (the exception reaches
 * the caller and nothing is written). Returning without calling it, or swallowing the exception
 * it threw, fails the insert with {@link IllegalStateException} or the write's own exception, so
 * that a caller never receives ids of jobs that were not written. An exception thrown after
 * {@code proceed()} returned also reaches the caller, although the jobs were written (and, outside
 * the caller's transaction, stay written). It runs on the inserting thread.
 */
@FunctionalInterface
public interface InsertMiddleware {
    /**
     * Called once per insert call with its jobs, in the caller's order; the list itself cannot be
     * changed (no job added or removed), each job can.
     */
    void insert(List<InsertingJob> jobs, Next next);

    /** The rest of the chain: the next middleware, and at the end the write. */
    @FunctionalInterface
    interface Next {
        /** Runs the rest of the chain and returns what each insert did, in order. */
        List<InsertResult> proceed();
    }
}
