package dev.runnel;

import java.time.Duration;
import java.util.List;

/**
 * Hears how a client's runtime does its own work, for metrics: each claim of jobs, each write of
 * outcomes, and, while the client leads, the cluster's job counts by queue and state. What
 * happened to each job is a {@link JobListener}'s to hear.
 *
 * <pre>{@code
 * Runnel.builder().runtimeListener(new RuntimeListener() {
 *     @Override public void claimed(String queue, int requested, int claimed, Duration took) {
 *         claimTimer.record(took);
 *     }
 * })
 * }</pre>
 *
 * <p>Called on the runtime's own threads (a queue's producer, the completer, the job counter), so
 * it must be quick and must not block; an exception it throws is logged and ignored. Each
 * method is called once per statement, never once per job.
 */
public interface RuntimeListener {
    /**
     * A claim on {@code queue} asked for up to {@code requested} jobs (this client's free slots,
     * and, while jobs take under a millisecond, the jobs it claims ahead of them) and got
     * {@code claimed}; its statement took {@code took}. A claim that failed is not reported.
     */
    default void claimed(String queue, int requested, int claimed, Duration took) {}

    /**
     * One statement (or, on SQLite, one transaction) wrote the outcomes of {@code count} attempts
     * in {@code took}. A write retried after a failure is reported once, when it succeeds.
     */
    default void outcomesWritten(int count, Duration took) {}

    /**
     * While this client leads, once every {@link RunnelBuilder#jobCountInterval}: how many jobs
     * each queue has in each state, across the cluster (a state with none is not listed).
     */
    default void jobCounts(List<JobCount> counts) {}

    /**
     * This client no longer counts jobs (it stopped leading, or is stopping): the counts it
     * reported are no longer refreshed, and another client's are.
     */
    default void jobCountsStopped() {}
}
