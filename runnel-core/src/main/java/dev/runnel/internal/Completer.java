package dev.runnel.internal;

import dev.runnel.JobEvent;
import dev.runnel.JobListener;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Times;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes job outcomes in batches: plain completions in one statement, everything else in another,
 * flushed when a batch is full or a few milliseconds after its first outcome. Workers block in
 * {@link #submit} when it falls behind (backpressure). A failed write is retried with backoff, never
 * dropped; {@link #stop()} flushes everything first.
 */
public final class Completer implements Service {
    private static final Logger LOG = LoggerFactory.getLogger(Completer.class);
    private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(2);
    private static final long IDLE_POLL_MS = 50;

    private final Driver driver;
    private final List<JobListener> listeners;
    private final int batchSize;
    private final long flushNanos;
    private final Duration stopTimeout;
    private final ArrayBlockingQueue<Outcome> queue;
    private volatile boolean stopping;
    private volatile long stopDeadlineNanos;
    private volatile boolean gathering;
    /** While gathering: how many more outcomes would fill the batch. */
    private volatile int neededForFull;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile Thread thread;

    /**
     * @param batchSize most outcomes per statement
     * @param flushInterval longest an outcome waits for its batch to fill
     * @param stopTimeout how long {@link #stop()} keeps retrying writes while the database is down
     */
    public Completer(Driver driver, List<JobListener> listeners, int batchSize, Duration flushInterval, Duration stopTimeout) {
        this.driver = driver;
        this.listeners = List.copyOf(listeners);
        this.batchSize = batchSize;
        this.flushNanos = flushInterval.toNanos();
        this.stopTimeout = stopTimeout;
        this.queue = new ArrayBlockingQueue<>(batchSize * 4);
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

    /** Hands an outcome over to be written; blocks while the completer is behind. */
    public void submit(Outcome outcome) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(outcome);
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the outcome must not be lost to a late cancel
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (pending.incrementAndGet() >= neededForFull && gathering) {
            LockSupport.unpark(thread); // a full batch is waiting: no need to sleep out the interval
        }
    }

    @Override
    public void stop() {
        Thread t;
        synchronized (this) {
            t = thread;
            if (t == null) {
                return;
            }
            stopDeadlineNanos = System.nanoTime() + stopTimeout.toNanos();
            stopping = true;
        }
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        List<Outcome> batch = new ArrayList<>(batchSize);
        while (true) {
            batch.clear();
            try {
                gather(batch);
            } catch (InterruptedException e) {
                take(batch, batchSize);
            }
            if (batch.isEmpty()) {
                if (stopping && queue.isEmpty()) {
                    return;
                }
                continue;
            }
            write(batch);
        }
    }

    private void gather(List<Outcome> batch) throws InterruptedException {
        if (stopping) {
            take(batch, batchSize);
            return;
        }
        // Polled, not taken, so that a stopping completer notices without being interrupted
        // (an interrupt could break a JDBC call in flight).
        Outcome first = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        pending.decrementAndGet();
        batch.add(first);
        // Sleep out the flush interval rather than wake for every outcome (a futex round trip
        // each); a submitter wakes us early once a full batch is waiting.
        long deadline = System.nanoTime() + flushNanos;
        while (true) {
            take(batch, batchSize - batch.size());
            long wait = deadline - System.nanoTime();
            if (batch.size() >= batchSize || wait <= 0 || stopping) {
                return;
            }
            neededForFull = batchSize - batch.size();
            gathering = true;
            if (pending.get() < neededForFull) {
                LockSupport.parkNanos(this, wait);
            }
            gathering = false;
        }
    }

    private void take(List<Outcome> batch, int max) {
        pending.addAndGet(-queue.drainTo(batch, max));
    }

    private void write(List<Outcome> batch) {
        int plain = 0;
        for (Outcome o : batch) {
            if (o.isPlainCompletion() && !o.claimRemoved()) {
                plain++;
            }
        }
        long[] ids = new long[plain];
        long[] at = new long[plain];
        List<JobSetStateParams> others = new ArrayList<>();
        List<JobReinsertParams> writtenBack = new ArrayList<>();
        int i = 0;
        for (Outcome o : batch) {
            if (o.needsNoWrite()) {
                continue;
            }
            String error = o.error() == null ? null : JobJson.encodeError(o.error());
            if (o.claimRemoved()) {
                writtenBack.add(new JobReinsertParams(o.job(), o.state(), o.finalizedAt(), error));
            } else if (o.isPlainCompletion()) {
                ids[i] = o.job().id();
                at[i++] = Times.toMicros(o.finalizedAt());
            } else {
                others.add(new JobSetStateParams(o.job().id(), o.state(), o.scheduledAt(), o.finalizedAt(), error,
                        o.attemptDelta()));
            }
        }
        if (plain > 0) {
            writeWithRetry(() -> driver.jobCompleteMany(new JobCompleteManyParams(ids, at, ids.length)), plain);
        }
        if (!others.isEmpty()) {
            writeWithRetry(() -> driver.jobSetStateMany(others), others.size());
        }
        if (!writtenBack.isEmpty()) {
            writeWithRetry(() -> driver.jobReinsertMany(writtenBack), writtenBack.size());
        }
        if (!listeners.isEmpty()) {
            for (Outcome o : batch) {
                publish(o);
            }
        }
    }

    /**
     * Every write is safe to repeat after an unclear failure: updates only touch jobs still running,
     * and a write-back leaves a job that is back already alone.
     */
    private void writeWithRetry(Runnable write, int count) {
        long delayMs = 10;
        while (true) {
            try {
                write.run();
                return;
            } catch (RuntimeException e) {
                if (stopping && System.nanoTime() - stopDeadlineNanos > 0) {
                    LOG.error("giving up writing {} job outcomes at stop; the jobs stay running until rescued", count, e);
                    return;
                }
                LOG.warn("writing {} job outcomes failed, retrying in {} ms: {}", count, delayMs, e.toString());
                sleepQuietly(delayMs);
                delayMs = Math.min(delayMs * 2, MAX_RETRY_DELAY.toMillis());
            }
        }
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
