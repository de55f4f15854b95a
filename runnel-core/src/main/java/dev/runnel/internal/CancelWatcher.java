package dev.runnel.internal;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelRequestedParams;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Interrupts this client's running jobs whose cancel someone requested, from any client or
 * process: every {@link #POLL} it asks the database which of them are marked (one primary-key
 * lookup per running job, and only while jobs run), and at once when a notification says a cancel
 * was requested somewhere ({@link #cancelRequested()}); while no job runs, it sleeps until one
 * starts, and its first look comes a {@link #POLL} after that start, not at it: a client whose jobs
 * come one at a time would otherwise ask once per job (a planned statement each, 50 a second at 50
 * jobs a second). The job sees
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
    /** Set by {@link #cancelRequested()}: the next look is at once, whatever woke the watcher. */
    private final AtomicBoolean asked = new AtomicBoolean();

    CancelWatcher(Driver driver, List<Producer> producers, JobStartAlarm alarm) {
        super("cancels", POLL);
        this.driver = driver;
        this.producers = List.copyOf(producers);
        this.alarm = alarm;
        // Another watcher may raise the alarm while this one polls: only a sleeping one is woken.
        alarm.wakes(this::jobStarted);
    }

    @Override
    protected long waitNanos() {
        return idle ? DeadlineWatcher.IDLE_WAIT.toNanos() : super.waitNanos();
    }

    /** A job started after a watcher went to sleep for want of running jobs. */
    private void jobStarted() {
        if (idle) {
            wakeUp();
        }
    }

    /** A cancel was requested somewhere (a notification, or this client's own API): looks at once. */
    void cancelRequested() {
        asked.set(true);
        wakeUp();
    }

    @Override
    protected boolean tick() {
        boolean cancelAsked = asked.getAndSet(false);
        if (idle && !cancelAsked) {
            // Woken by a job start (or the idle wait's end): poll from now on, the first look a POLL from now.
            idle = false;
            return false;
        }
        Map<Long, RunningJob> running = new HashMap<>();
        for (Producer producer : producers) {
            producer.runningById(running);
        }
        if (running.isEmpty()) {
            // Idle before the alarm is raised: a job start in between must find it so and wake it.
            idle = true;
            idle = alarm.armIfIdle(producers);
            return false;
        }
        idle = false;
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
