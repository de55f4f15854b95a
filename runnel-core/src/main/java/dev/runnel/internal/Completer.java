package dev.runnel.internal;

import dev.runnel.JobError;
import dev.runnel.JobEvent;
import dev.runnel.JobListener;
import dev.runnel.JobRow;
import dev.runnel.RetryPolicy;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobGetManyParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Links;
import dev.runnel.driver.Times;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes job outcomes in batches: plain completions in one statement, everything else (completions
 * with output too) in another, flushed when a batch is full or a flush interval (a few
 * milliseconds) after its first outcome. An outcome that comes when nothing was written for a flush
 * interval is written at once: outcomes then come too far apart for a batch to gather, and waiting
 * would only delay it. When writes fall
 * behind ({@link #behind}), a job's outcome keeps the job's place in its producer's slots until the
 * completer takes it into a batch ({@link Handed#taken}): producers claim less (backpressure), and
 * no worker thread waits for the completer.
 *
 * <p>A write that fails on the connection is retried with backoff, never dropped. A write the
 * database refuses for its data is split until the row at fault is found; the rest is written, and
 * that row is stored as a failed attempt with the database's reason instead. Listeners hear of an
 * outcome only once it is stored. {@link #stop()} flushes everything first; after it, a submit
 * fails.
 */
public final class Completer implements Service {
    private static final Logger LOG = LoggerFactory.getLogger(Completer.class);
    private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(2);
    /**
     * The longest the completer sleeps with nothing to write: the first outcome, or a stop, wakes
     * it at once, so this bounds nothing but the idle wake-ups. Polling every 50 ms cost an idle
     * client about 0.2-0.4% of a core; waking every second, the completers of 20 idle clients still
     * cost 0.19% (the threads' run time in /proc's schedstat).
     */
    private static final long IDLE_PARK_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How much of the database's reason an unstorable outcome's replacement error keeps. */
    private static final int MAX_REASON_CHARS = 1_000;

    /**
     * A completer's settings, validated by the client builder.
     *
     * @param batchSize most outcomes per statement
     * @param flushInterval longest an outcome waits for its batch to fill
     * @param stopTimeout how long {@link #stop()} keeps retrying writes while the database is down
     * @param clientId the client whose attempts these are: writes match it, so that an attempt that
     *     was rescued and claimed again is never overwritten
     * @param deleteCompleted the client keeps no completed jobs (their retention is zero): a plain
     *     completion deletes its job rather than recording it completed for the cleaner to delete
     */
    public record Config(int batchSize, Duration flushInterval, Duration stopTimeout, String clientId,
            boolean deleteCompleted) {
        /** A completer that records completed jobs as such. */
        public Config(int batchSize, Duration flushInterval, Duration stopTimeout, String clientId) {
            this(batchSize, flushInterval, stopTimeout, clientId, false);
        }
    }

    /**
     * What is handed to the completer: an outcome, and what to do once the completer has taken it
     * into a batch to write (a job's outcome frees the job's place in its producer's slots then).
     */
    public interface Handed {
        Outcome outcome();

        /** The completer took the outcome into a batch; called once, on the completer's thread. */
        default void taken() {}
    }

    private final Driver driver;
    private final List<JobListener> listeners;
    private final Config config;
    private final Clock clock;
    private final RetryPolicy retryPolicy;
    private final RuntimeListeners runtimeListeners;
    /**
     * Unbounded, but what waits here is bounded: past {@link #behind}, a job's outcome holds its
     * slot until taken, so each producer adds at most its slots' worth more.
     */
    private final ConcurrentLinkedQueue<Handed> queue = new ConcurrentLinkedQueue<>();
    private final long flushNanos;
    private final int backlog;
    private final AtomicInteger submitting = new AtomicInteger();
    private volatile boolean closed;
    private volatile boolean stopping;
    private volatile long stopDeadlineNanos;
    private volatile boolean gathering;
    /** While gathering: how many more outcomes would fill the batch. */
    private volatile int neededForFull;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile Thread thread;
    /** When the last write ended ({@code nanoTime}); on the completer's thread only. */
    private long lastWriteEnded;
    private final Runnable linkedFinished;
    /** A linked job's outcome is waiting: the batch gathered so far is written without waiting out the interval. */
    private volatile boolean urgent;

    public Completer(Driver driver, List<JobListener> listeners, Config config, Clock clock, RetryPolicy retryPolicy,
            RuntimeListeners runtimeListeners) {
        this(driver, listeners, config, clock, retryPolicy, runtimeListeners, () -> {});
    }

    /**
     * @param linkedFinished run after an outcome of a linked job (a workflow task, a batch's or a
     *     sequence's job) was stored: it may have released jobs in any queue, which the
     *     driver's notification does not tell this process of everywhere (SQLite has none)
     */
    public Completer(Driver driver, List<JobListener> listeners, Config config, Clock clock, RetryPolicy retryPolicy,
            RuntimeListeners runtimeListeners, Runnable linkedFinished) {
        this.linkedFinished = linkedFinished;
        this.driver = driver;
        this.runtimeListeners = runtimeListeners;
        this.listeners = List.copyOf(listeners);
        this.config = config;
        this.clock = clock;
        this.retryPolicy = retryPolicy;
        this.flushNanos = config.flushInterval().toNanos();
        this.lastWriteEnded = System.nanoTime() - flushNanos;
        this.backlog = config.batchSize() * 4;
    }

    @Override
    public synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().name("runnel-completer").daemon().start(this::loop);
        }
    }

    /** Whether outcomes that need no write must still pass through, for the listeners' sake. */
    public boolean hasListeners() {
        return !listeners.isEmpty();
    }

    /**
     * Whether the outcomes waiting to be written are four batches or more: a job's outcome handed
     * over now should hold the job's slot until it is taken. (The bound of the queue that job
     * threads once waited on to put their outcomes in.)
     */
    public boolean behind() {
        return pending.get() >= backlog;
    }

    /**
     * Hands an outcome over to be written, without waiting. Throws {@link IllegalStateException}
     * once {@link #stop()} has begun: nothing would write it.
     */
    public void submit(Handed handed) {
        Outcome outcome = handed.outcome();
        submitting.incrementAndGet();
        try {
            if (closed) {
                throw new IllegalStateException("the completer has stopped, so the outcome of job " + outcome.job().id()
                        + " cannot be written; the job stays running until it is rescued");
            }
            queue.add(handed);
        } finally {
            submitting.decrementAndGet();
        }
        int waiting = pending.incrementAndGet();
        if (Links.isLinked(outcome.job().metadata())) {
            // Jobs may wait for this outcome (the next task of a workflow, a sequence's next job):
            // written at once rather than after the flush interval, which each step of a chain would pay.
            urgent = true;
            LockSupport.unpark(thread);
        } else if (waiting >= neededForFull && gathering) {
            LockSupport.unpark(thread); // a full batch is waiting: no need to sleep out the interval
        }
    }

    /** Refuses new outcomes, writes those already submitted (retrying up to the stop timeout), then ends. */
    @Override
    public void stop() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
            if (t == null) {
                return;
            }
        }
        // Every submit that got past the check has queued its outcome before the loop may end.
        while (submitting.get() > 0) {
            Thread.onSpinWait();
        }
        stopDeadlineNanos = System.nanoTime() + config.stopTimeout().toNanos();
        stopping = true;
        LockSupport.unpark(t);
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        List<Outcome> batch = new ArrayList<>(config.batchSize());
        while (true) {
            batch.clear();
            gather(batch);
            if (batch.isEmpty()) {
                if (stopping && queue.isEmpty()) {
                    return;
                }
                continue;
            }
            try {
                write(batch);
            } catch (RuntimeException e) {
                // A bug here must not end the thread that every queue's outcomes go through.
                LOG.error("writing {} job outcomes failed unexpectedly; their jobs stay running until rescued",
                        batch.size(), e);
            }
            lastWriteEnded = System.nanoTime();
        }
    }

    private void gather(List<Outcome> batch) {
        if (stopping) {
            take(batch, config.batchSize());
            return;
        }
        // Parked, not taken from the queue, so that a stop wakes it without an interrupt (which
        // could break a JDBC call in flight); a submit wakes it as it does a gathering batch.
        if (pending.get() == 0) {
            neededForFull = 1;
            gathering = true;
            if (pending.get() == 0 && !stopping) {
                LockSupport.parkNanos(this, IDLE_PARK_NANOS);
            }
            gathering = false;
        }
        if (take(batch, 1) == 0) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastWriteEnded >= flushNanos) {
            // Nothing was written for a flush interval: outcomes come further apart than that, and
            // the wait would delay this one (and wake this thread once more) for no company. The
            // outcomes that come during its write gather for the next.
            take(batch, config.batchSize() - batch.size());
            return;
        }
        // Sleep out the flush interval rather than wake for every outcome (a futex round trip
        // each); a submitter wakes us early once a full batch is waiting.
        long deadline = now + flushNanos;
        while (true) {
            take(batch, config.batchSize() - batch.size());
            long wait = deadline - System.nanoTime();
            if (urgent) {
                urgent = false;
                take(batch, config.batchSize() - batch.size()); // the linked outcome, had it come after the take above
                return;
            }
            if (batch.size() >= config.batchSize() || wait <= 0 || stopping) {
                return;
            }
            neededForFull = config.batchSize() - batch.size();
            gathering = true;
            if (pending.get() < neededForFull && !urgent) {
                LockSupport.parkNanos(this, wait);
            }
            gathering = false;
        }
    }

    /** Takes up to {@code max} outcomes into {@code batch}, telling each it was taken; how many. */
    private int take(List<Outcome> batch, int max) {
        int n = 0;
        for (Handed handed; n < max && (handed = queue.poll()) != null; n++) {
            batch.add(handed.outcome());
            handed.taken();
        }
        pending.addAndGet(-n);
        return n;
    }

    /** The three statements an outcome is written by, each one statement (or transaction) per batch. */
    private enum Write { COMPLETE, SET_STATE, WRITE_BACK }

    private void write(List<Outcome> batch) {
        List<Outcome> complete = new ArrayList<>(batch.size());
        List<Outcome> setState = new ArrayList<>();
        List<Outcome> writeBack = new ArrayList<>();
        for (Outcome o : batch) {
            if (o.needsNoWrite()) {
                continue;
            }
            (o.claimRemoved() ? writeBack : o.isPlainCompletion() ? complete : setState).add(o);
        }
        List<Outcome> stored = listeners.isEmpty() ? null : new ArrayList<>(batch.size());
        store(complete, Write.COMPLETE, stored);
        store(setState, Write.SET_STATE, stored);
        for (Outcome o : setState) {
            // Any linked outcome: a retry of a job whose cancel was requested is stored cancelled.
            if (Links.isLinked(o.job().metadata())) {
                linkedFinished.run();
                break;
            }
        }
        store(writeBack, Write.WRITE_BACK, stored);
        if (stored != null) {
            for (Outcome o : batch) {
                if (o.needsNoWrite()) {
                    stored.add(o);
                }
            }
            stored.forEach(this::publish);
        }
    }

    /**
     * Writes {@code part}, adding what was stored to {@code stored} (when not null). A part the
     * database refuses for its data is halved until the refused row stands alone.
     */
    private void store(List<Outcome> part, Write write, List<Outcome> stored) {
        if (part.isEmpty()) {
            return;
        }
        Written written;
        try {
            written = writeWithRetry(part, write);
        } catch (DataRejectedException e) {
            if (part.size() > 1) {
                int half = part.size() / 2;
                store(part.subList(0, half), write, stored);
                store(part.subList(half, part.size()), write, stored);
            } else {
                storeInstead(part.getFirst(), e, stored);
            }
            return;
        }
        if (written != null) {
            collectStored(part, written, stored);
        }
    }

    /** Stores a failed attempt, with the database's reason, in place of an outcome it refused. */
    private void storeInstead(Outcome refused, DataRejectedException e, List<Outcome> stored) {
        JobRow job = refused.job();
        Instant now = clock.instant();
        String reason = JobJson.clean(String.valueOf(e.getMessage()));
        if (reason.length() > MAX_REASON_CHARS) {
            reason = reason.substring(0, MAX_REASON_CHARS) + "...";
        }
        JobError error = new JobError(job.attempt(), now, "the " + refused.type().name().toLowerCase()
                + " outcome of this attempt could not be stored, so it is recorded as failed: " + reason, "");
        Outcome instead = refused.unstorable(now, Times.plusClamped(now, JobRunner.delay(retryPolicy, job.attempt())), error);
        LOG.error("job {}: the database refused its {} outcome; recording the attempt as failed instead: {}",
                job.id(), refused.type(), reason);
        List<Outcome> one = List.of(instead);
        try {
            Written written = writeWithRetry(one, instead.claimRemoved() ? Write.WRITE_BACK : Write.SET_STATE);
            if (written != null) {
                collectStored(one, written, stored);
            }
        } catch (DataRejectedException again) {
            LOG.error("job {}: the database refuses any outcome for it ({}); it stays running until this client stops"
                    + " and the rescuer takes it", job.id(), again.getMessage());
        }
    }

    /** The ids a write stored, and whether an earlier try of it failed without telling. */
    private record Written(long[] ids, boolean afterUnclearFailure) {}

    /**
     * Writes with retries on any failure but a data error, which is thrown. Null when it gave up
     * at stop: those outcomes are not stored, and their jobs stay running until rescued.
     */
    private Written writeWithRetry(List<Outcome> part, Write write) {
        long delayMs = 10;
        boolean unclear = false;
        while (true) {
            try {
                long start = System.nanoTime();
                long[] ids = writeOnce(part, write);
                if (!runtimeListeners.isEmpty()) {
                    runtimeListeners.outcomesWritten(part.size(), System.nanoTime() - start);
                }
                return new Written(ids, unclear);
            } catch (DataRejectedException e) {
                throw e;
            } catch (RuntimeException e) {
                unclear = true;
                if (stopping && System.nanoTime() - stopDeadlineNanos > 0) {
                    LOG.error("giving up writing {} job outcomes at stop; their jobs stay running until rescued",
                            part.size(), e);
                    return null;
                }
                LOG.warn("writing {} job outcomes failed, retrying in {} ms: {}", part.size(), delayMs, e.toString());
                sleepQuietly(delayMs);
                delayMs = Math.min(delayMs * 2, MAX_RETRY_DELAY.toMillis());
            }
        }
    }

    private long[] writeOnce(List<Outcome> part, Write write) {
        return switch (write) {
            case COMPLETE -> {
                JobCompleteManyParams completions = completions(part, config.clientId());
                yield driver.jobCompleteMany(config.deleteCompleted() ? completions.deleting() : completions);
            }
            case SET_STATE -> driver.jobSetStateMany(part.stream().map(this::setState).toList());
            case WRITE_BACK -> {
                driver.jobReinsertMany(part.stream().map(Completer::reinsert).toList());
                // A job present already was written back by an earlier try: every one is stored.
                yield part.stream().mapToLong(o -> o.job().id()).toArray();
            }
        };
    }

    /** Plain completions as the completion statement takes them: public for the microbenchmark. */
    public static JobCompleteManyParams completions(List<Outcome> part, String clientId) {
        int n = part.size();
        List<JobRow> jobs = new ArrayList<>(n);
        long[] at = new long[n];
        for (int i = 0; i < n; i++) {
            Outcome o = part.get(i);
            jobs.add(o.job());
            at[i] = Times.toMicros(o.finalizedAt());
        }
        return JobCompleteManyParams.of(jobs, at, clientId);
    }

    private JobSetStateParams setState(Outcome o) {
        JobRow job = o.job();
        return new JobSetStateParams(job.id(), job.attempt(), job.attemptedAt().orElseThrow(), config.clientId(),
                o.state(), o.scheduledAt(), o.finalizedAt(), encode(o.error()), o.attemptDelta(), o.output(),
                Links.isLinked(job.metadata()));
    }

    private static JobReinsertParams reinsert(Outcome o) {
        return new JobReinsertParams(o.job(), o.state(), o.finalizedAt(), encode(o.error()));
    }

    private static String encode(JobError error) {
        return error == null ? null : JobJson.encodeError(error);
    }

    /**
     * Adds the outcomes of {@code part} that {@code written} stored to {@code stored}, and logs the
     * others: their jobs were no longer in this client's attempt (rescued while this client was
     * presumed dead, then claimed again), so the write was rightly dropped. After an unclear
     * failure a job may be missing because the earlier try stored it; those are read back.
     */
    private void collectStored(List<Outcome> part, Written written, List<Outcome> stored) {
        if (written.ids().length == part.size()) {
            if (stored != null) {
                stored.addAll(part);
            }
            return;
        }
        Set<Long> ids = new HashSet<>(written.ids().length * 2);
        for (long id : written.ids()) {
            ids.add(id);
        }
        List<Outcome> missing = new ArrayList<>();
        for (Outcome o : part) {
            if (ids.contains(o.job().id())) {
                if (stored != null) {
                    stored.add(o);
                }
            } else {
                missing.add(o);
            }
        }
        if (written.afterUnclearFailure()) {
            missing = storedEarlier(missing, stored);
        }
        if (!missing.isEmpty()) {
            LOG.warn("dropped the outcomes of {} jobs (e.g. job {}): they are no longer in the attempt this client ran"
                    + " (rescued while it was presumed dead, and claimed again)", missing.size(),
                    missing.getFirst().job().id());
        }
    }

    /** Of {@code missing}, those an earlier, unclear try stored after all go to {@code stored}; returns the rest. */
    private List<Outcome> storedEarlier(List<Outcome> missing, List<Outcome> stored) {
        Map<Long, JobRow> now = new HashMap<>();
        try {
            for (JobRow row : driver.jobGetMany(new JobGetManyParams(missing.stream().mapToLong(o -> o.job().id()).toArray()))) {
                now.put(row.id(), row);
            }
        } catch (RuntimeException e) {
            LOG.warn("could not read back {} jobs whose outcome write was unclear: {}", missing.size(), e.toString());
            return missing;
        }
        List<Outcome> rest = new ArrayList<>();
        for (Outcome o : missing) {
            JobRow row = now.get(o.job().id());
            if (row == null ? deletedByItsCompletion(o) : isWrittenOutcome(o, row)) {
                if (stored != null) {
                    stored.add(o);
                }
            } else {
                rest.add(o);
            }
        }
        return rest;
    }

    /**
     * Whether {@code o}, whose job is gone, was written: a plain completion of a client that keeps
     * no completed jobs deletes the job it completes, and nothing else removes a running job.
     */
    private boolean deletedByItsCompletion(Outcome o) {
        return config.deleteCompleted() && o.isPlainCompletion();
    }

    /** Whether {@code row} is what writing {@code o} made of its job. */
    private boolean isWrittenOutcome(Outcome o, JobRow row) {
        JobRow job = o.job();
        return row.state() == o.state()
                && row.attempt() == job.attempt() + o.attemptDelta()
                && row.attemptedAt().equals(job.attemptedAt())
                && !row.attemptedBy().isEmpty() && row.attemptedBy().getLast().equals(config.clientId());
    }

    private void publish(Outcome o) {
        JobEvent event = new JobEvent(o.type(), o.job(), o.state(), Optional.ofNullable(o.error()), o.runTime());
        for (JobListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.warn("job listener threw on {} of job {}", o.type(), o.job().id(), e);
            }
        }
    }

    private static void sleepQuietly(long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                // an outcome is never abandoned to an interrupt
            }
        }
    }
}
