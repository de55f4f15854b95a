package dev.runnel.internal;

import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.QueueExecutor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a producer's claimed jobs in its {@link Slots}: on virtual threads, started as jobs wait
 * with slots free for them ({@link #launch}), or on the queue's pool of platform threads when it
 * has one; a thread whose job ends goes on to the next job waiting, while there is one. Hands each
 * outcome to the completer, and gives back to the table the jobs that waited ahead too long for a
 * slot. Knows the attempts in flight, for deadlines and cancels.
 */
final class JobLauncher {
    private static final Logger LOG = LoggerFactory.getLogger(JobLauncher.class);

    private final String queue;
    private final boolean atMostOnce;
    private final Slots slots;
    private final JobRunner runner;
    private final Completer completer;
    private final Clock clock;
    /** The driver's {@code jobCancelRequested}: of these running jobs, those whose cancel was asked for. */
    private final Function<long[], long[]> cancelRequested;
    private final ThreadFactory jobThreads;
    /** Null when jobs run on virtual threads. */
    private final JobPool pool;
    /** Virtual threads started ({@link #startAnother}) that have not yet begun ({@link #begin}). */
    private final AtomicInteger starting = new AtomicInteger();
    /** The jobs claimed and not finished: those running and those claimed ahead (a set: no id boxed per job). */
    private final Set<RunningJob> running = ConcurrentHashMap.newKeySet();
    /** Told of each job start, so it may sleep while none runs; set before the first launch. */
    private JobStartAlarm alarm;

    JobLauncher(String queue, boolean atMostOnce, QueueExecutor executor, Slots slots, JobRunner runner,
            Completer completer, Clock clock, Function<long[], long[]> cancelRequested) {
        this.queue = queue;
        this.atMostOnce = atMostOnce;
        this.slots = slots;
        this.runner = runner;
        this.completer = completer;
        this.clock = clock;
        this.cancelRequested = cancelRequested;
        // Unnamed: a name per job is a string built per job, and a thread dump shows the job anyway.
        this.jobThreads = Thread.ofVirtual().factory();
        this.pool = executor instanceof QueueExecutor.PlatformThreads p
                ? new JobPool(queue, slots.maxWorkers(), p.nice()) : null;
    }

    void watchedBy(JobStartAlarm alarm) {
        this.alarm = alarm;
    }

    /**
     * Starts a claimed job in a free slot, or leaves it to wait ahead for one. On virtual threads
     * it waits ahead in any case, and a new thread starts for it only while no thread started
     * before is still on its way to its first job: each thread, as it begins, starts the next one
     * if a job still waits with a slot free for it ({@link #begin}). Jobs that block so start one
     * after another as fast as threads begin; jobs that end at once are taken, in claim order, by
     * the threads already running, and a claim of a thousand no-op jobs starts a few threads, not
     * a thousand (each a virtual thread, its continuation and its registration, a sixth of a job's
     * allocation in the burndown).
     */
    void launch(JobRow row) {
        RunningJob job = new RunningJob(row, slots);
        running.add(job);
        if (pool == null) {
            slots.waitAhead(job);
            if (starting.get() == 0) {
                startAnother();
            }
            return;
        }
        if (slots.admit(job)) {
            start(job);
            return;
        }
        for (RunningJob next = slots.startWaiting(); next != null; next = slots.startWaiting()) {
            start(next);
        }
    }

    /**
     * Starts a virtual thread for the next job waiting, with a slot taken for it; none when no job
     * waits or no slot is free. Counted in {@link #starting} before it looks, so that a launch that
     * adds a job meanwhile either sees the count and leaves the job to this look, or adds it
     * before this look or the one after the count drops back.
     */
    private void startAnother() {
        do {
            starting.incrementAndGet();
            RunningJob next = slots.startWaiting();
            if (next != null) {
                jobThreads.newThread(() -> begin(next)).start();
                return;
            }
        } while (starting.decrementAndGet() == 0 && slots.startable());
    }

    /** A thread from {@link #startAnother} begins: it starts the next one where a job still waits, then works. */
    private void begin(RunningJob first) {
        if (starting.decrementAndGet() == 0 && slots.startable()) {
            startAnother();
        }
        work(first);
    }

    /** The attempts in flight, those claimed ahead included. */
    Collection<RunningJob> running() {
        return running;
    }

    void runningById(Map<Long, RunningJob> into) {
        for (RunningJob job : running) {
            into.put(job.row.id(), job);
        }
    }

    /** Cancels every attempt in flight, and every job claimed ahead, because the client is stopping. */
    void cancelAll(String reason) {
        // Those claimed ahead first: a running job cancelled first may end and start the next of
        // them before this reaches it.
        for (RunningJob job : slots.ahead().waiting()) {
            job.cancel(RunningJob.Cause.STOP, reason);
        }
        for (RunningJob job : running) {
            job.cancel(RunningJob.Cause.STOP, reason);
        }
    }

    /** Ends the pool's threads, if it has one; after its jobs finished or were cancelled. */
    void releaseThreads() {
        if (pool != null) {
            pool.shutdown();
        }
    }

    /** Runs {@code job} in the slot just taken for it, on the queue's pool. */
    private void start(RunningJob job) {
        pool.execute(() -> work(job));
    }

    /** Works {@code first}, then the jobs that wait ahead while there are any, in the one slot. */
    private void work(RunningJob first) {
        RunningJob job = first;
        while (job != null) {
            if (alarm != null) {
                alarm.jobStarted();
            }
            workOne(job);
            RunningJob next = slots.next();
            if (next != null || pool != null) {
                // The thread goes on to another job (the next one claimed ahead, or a pool's): no
                // late cancel or timeout of this one may interrupt it.
                job.detach();
            }
            job = next;
        }
    }

    private void workOne(RunningJob job) {
        JobRow row = job.row;
        job.started();
        boolean heldUntilTaken = false;
        try {
            Outcome outcome = runner.run(job);
            slots.ahead().took(System.nanoTime() - job.startedNanos);
            if (atMostOnce) {
                if (outcome.type() == JobEvent.Type.COMPLETED && !completer.hasListeners()) {
                    return; // the claim removed it: nothing to write, nobody to tell
                }
                outcome = outcome.atMostOnce(clock.instant());
            }
            // While the completer is behind, the job stays held in its slots until the completer
            // takes its outcome: the producer claims less, and this thread goes on.
            boolean behind = completer.behind();
            completer.submit(job.ended(outcome, behind));
            heldUntilTaken = behind;
        } catch (RuntimeException | Error e) {
            // The runner never throws; a submit after the client stopped does. The job stays
            // running, and the rescuer takes it once this client is gone.
            LOG.error("the outcome of job {} of queue {} cannot be written: {}", row.id(), queue, e.toString());
        } finally {
            running.remove(job);
            if (!heldUntilTaken) {
                slots.release();
            }
        }
    }

    /**
     * Sends the jobs waiting ahead back to the table once they have waited too long
     * ({@link AheadJobs#takeStale}), available now with their attempt uncounted (a snooze of no
     * time); one whose cancel was asked for ends cancelled instead, unstarted, so that going back
     * loses no cancel. At least once only: at most once, their claim removed them, and they run
     * here. Called by the producer's loop, under no lock: it asks the table and may wait on the
     * completer.
     */
    void giveBackStale() {
        // With a slot free, a job waits ahead only for a thread on its way (launch): it is not
        // waiting for a slot, and nobody gains by its going back.
        if (atMostOnce || slots.active() < slots.maxWorkers()) {
            return;
        }
        List<RunningJob> back = slots.ahead().takeStale();
        if (back.isEmpty()) {
            return;
        }
        slots.aheadLimit(0);
        Set<Long> cancelled = new HashSet<>();
        try {
            for (long id : cancelRequested.apply(back.stream().mapToLong(j -> j.row.id()).toArray())) {
                cancelled.add(id);
            }
        } catch (RuntimeException e) {
            LOG.debug("could not ask which jobs going back have a cancel requested: {}", e.toString());
        }
        Instant now = clock.instant();
        for (RunningJob job : back) {
            JobRow row = job.row;
            if (job.cause() == null && cancelled.contains(row.id())) {
                job.cancel(RunningJob.Cause.CANCEL, CancelWatcher.REASON);
            }
            Outcome outcome = job.cause() == null ? Outcome.snoozed(row, now, Duration.ZERO, 0)
                    : Outcome.unstarted(row, now, job.cause(), job.reason());
            running.remove(job);
            slots.release();
            try {
                completer.submit(outcome);
            } catch (RuntimeException e) {
                // The client is stopping: the job stays running, and the rescuer takes it.
                LOG.warn("job {} of queue {} cannot be given back: {}", row.id(), queue, e.toString());
            }
        }
    }
}
