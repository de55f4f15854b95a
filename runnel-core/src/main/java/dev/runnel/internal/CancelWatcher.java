package dev.runnel.internal;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelRequestedParams;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Interrupts this client's running jobs whose cancel someone requested, from any client or
 * process: every {@link #POLL} it asks the database which of them are marked (one primary-key
 * lookup per running job, and only while jobs run), and at once when a notification says a cancel
 * was requested somewhere; while no job runs, it sleeps until one starts. The job sees
 * {@link dev.runnel.Job#isCancelled()} and its thread is interrupted; it ends cancelled unless it
 * completes.
 */
public final class CancelWatcher extends Ticker {
    /** How often the database is asked, when no notification comes: a cancel lands within this. */
    public static final Duration POLL = Duration.ofSeconds(1);
    /** The reason recorded on a job cancelled from outside its worker. */
    public static final String REASON = "cancelled by an operator";

    private final Driver driver;
    private final List<Producer> producers;
    private final JobStartAlarm alarm;
    /** Set when no job ran at the last look: the watcher sleeps until a job starts. */
    private volatile boolean idle;

    CancelWatcher(Driver driver, List<Producer> producers, JobStartAlarm alarm) {
        super("cancels", POLL);
        this.driver = driver;
        this.producers = List.copyOf(producers);
        this.alarm = alarm;
        alarm.wakes(this);
    }

    @Override
    protected long waitNanos() {
        return idle ? DeadlineWatcher.IDLE_WAIT.toNanos() : super.waitNanos();
    }

    @Override
    protected boolean tick() {
        Map<Long, RunningJob> running = new HashMap<>();
        for (Producer producer : producers) {
            producer.runningById(running);
        }
        idle = running.isEmpty() && alarm.armIfIdle(producers);
        if (running.isEmpty()) {
            return false;
        }
        long[] ids = running.keySet().stream().mapToLong(Long::longValue).toArray();
        for (long id : driver.jobCancelRequested(new JobCancelRequestedParams(ids))) {
            RunningJob job = running.get(id);
            if (job != null) {
                job.cancel(RunningJob.Cause.CANCEL, REASON);
            }
        }
        return false;
    }
}
