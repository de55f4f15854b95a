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
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a producer's claimed jobs in its {@link Slots}: each on a virtual thread, or on the queue's
 * pool of platform threads when it has one, and then, on the same thread, the jobs claimed ahead
 * while there are any; hands each outcome to the completer; and gives back to the table the jobs
 * that waited ahead too long. Knows the attempts in flight, for deadlines and cancels.
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
    /** Null when jobs run on virtual threads: their launch stays what it was, one null check more. */
    private final JobPool pool;
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

    /** Starts a claimed job in a free slot, or leaves it to wait ahead for one. */
    void launch(JobRow row) {
        RunningJob job = new RunningJob(row, slots);
        running.add(job);
        if (slots.admit(job)) {
            start(job);
            return;
        }
        for (RunningJob next = slots.startWaiting(); next != null; next = slots.startWaiting()) {
            start(next);
        }
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

    /** Runs {@code job} in the slot just taken for it. */
    private void start(RunningJob job) {
        if (pool == null) {
            jobThreads.newThread(() -> work(job)).start();
        } else {
            pool.execute(() -> work(job));
        }
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
        if (atMostOnce) {
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
