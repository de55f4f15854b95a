package dev.runnel.internal;

import java.time.Duration;
import java.util.List;

/**
 * Cancels attempts that run past their deadline. One sweep over the running jobs every few
 * milliseconds costs less than a timer per job at tens of thousands of jobs a second.
 */
public final class DeadlineWatcher extends Ticker {
    /** How often running jobs are checked; a timeout fires at most this late. */
    public static final Duration SWEEP = Duration.ofMillis(20);

    private final List<Producer> producers;

    public DeadlineWatcher(List<Producer> producers) {
        super("deadlines", SWEEP);
        this.producers = List.copyOf(producers);
    }

    @Override
    protected boolean tick() {
        long now = System.nanoTime();
        for (Producer producer : producers) {
            for (RunningJob job : producer.running()) {
                if (job.pastDeadline(now)) {
                    job.cancel(RunningJob.Cause.TIMEOUT, "job timed out after " + job.timeout().toMillis() + " ms");
                }
            }
        }
        return false;
    }
}
