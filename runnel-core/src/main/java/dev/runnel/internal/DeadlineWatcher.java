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

    /**
     * How long the deadline and cancel watchers sleep while no job runs: a job that starts wakes
     * them ({@link JobStartAlarm}). Sweeping every 20 ms with nothing to watch cost an idle client
     * 0.5% of a core; waking once a second, each watcher of 20 idle clients still cost 0.17% of a
     * core (the threads' run time in /proc's schedstat).
     */
    static final Duration IDLE_WAIT = Duration.ofSeconds(30);

    private final List<Producer> producers;
    private final JobStartAlarm alarm;
    /** Set when a sweep found no running job and the watcher sleeps {@link #IDLE_WAIT}; a job start wakes it. */
    private volatile boolean idle;

    DeadlineWatcher(List<Producer> producers, JobStartAlarm alarm) {
        super("deadlines", SWEEP);
        this.producers = List.copyOf(producers);
        this.alarm = alarm;
        alarm.wakes(this::wakeUp);
    }

    @Override
    protected long waitNanos() {
        return idle ? IDLE_WAIT.toNanos() : super.waitNanos();
    }

    @Override
    protected boolean tick() {
        long now = System.nanoTime();
        boolean any = false;
        for (Producer producer : producers) {
            for (RunningJob job : producer.running()) {
                any = true;
                if (job.pastDeadline(now)) {
                    job.cancel(RunningJob.Cause.TIMEOUT, "job timed out after " + job.timeout().toMillis() + " ms");
                }
            }
        }
        idle = !any && alarm.armIfIdle(producers);
        return false;
    }
}
