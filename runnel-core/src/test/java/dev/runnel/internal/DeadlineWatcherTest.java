package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The deadline watcher: it sleeps until a deadline is due, is woken only by one it would miss, and cancels on time. */
class DeadlineWatcherTest {
    private final Set<RunningJob> running = ConcurrentHashMap.newKeySet();
    /** How often the watcher read the running jobs: twice a sweep. */
    private final AtomicInteger reads = new AtomicInteger();
    private final Supplier<Collection<RunningJob>> jobs = () -> {
        reads.incrementAndGet();
        return running;
    };
    private final DeadlineWatcher watcher = new DeadlineWatcher(List.of(jobs));
    private final CountDownLatch release = new CountDownLatch(1);

    private static void until(BooleanSupplier condition) throws InterruptedException {
        Eventually.until("the condition, within 10 s", Duration.ofSeconds(10), condition);
    }

    @AfterEach
    void stop() {
        release.countDown();
        watcher.stop();
    }

    /** A job started now on a thread that waits until the test ends (a cancel interrupts it), with {@code timeout}. */
    private RunningJob start(long id, Duration timeout) {
        RunningJob job = SlotsTest.job(id);
        job.started();
        Thread worker = Thread.ofVirtual().start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                // cancelled
            }
        });
        job.bind(worker, timeout, 0);
        running.add(job);
        watcher.deadlineSet(job);
        return job;
    }

    @Test
    void jobsThatEndBeforeTheirTimeoutDoNotWakeTheWatcher() throws Exception {
        watcher.start();
        start(0, Duration.ofMinutes(1));
        // The first job wakes the watcher (nothing was due before it), which then sleeps until that
        // job's deadline, a minute on.
        until(() -> reads.get() >= 4);
        for (int i = 1; i <= 100; i++) {
            RunningJob job = start(i, Duration.ofMinutes(1));
            Thread.sleep(2);
            running.remove(job);
            Thread.sleep(3);
        }
        // No later start has an earlier deadline. A watcher woken at each start after a sweep that
        // found nothing running, and sweeping every 20 ms while jobs ran, read them about 50 times
        // over this half second.
        assertThat(reads.get()).as("reads of the running jobs").isEqualTo(4);
    }

    @Test
    void aShortTimeoutStartedWhileTheWatcherSleepsForALongOneIsCancelledOnTime() throws Exception {
        watcher.start();
        RunningJob slow = start(1, Duration.ofMinutes(1));
        until(() -> reads.get() >= 4);
        Thread.sleep(50);
        int readsBefore = reads.get();
        long startedNanos = System.nanoTime();
        RunningJob quick = start(2, Duration.ofMillis(100));
        until(() -> quick.cause() != null);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
        assertThat(reads.get()).as("the short timeout woke the watcher").isGreaterThan(readsBefore);
        assertThat(quick.cause()).isEqualTo(RunningJob.Cause.TIMEOUT);
        assertThat(quick.reason()).isEqualTo("job timed out after 100 ms");
        assertThat(tookMillis).as("cancelled after its timeout, not before").isGreaterThanOrEqualTo(100);
        assertThat(slow.cause()).as("the long timeout has not run out").isNull();
    }

    @Test
    void aTimeoutWithinTheSweepOfTheNextOneDueWaitsForIt() throws Exception {
        watcher.start();
        RunningJob first = start(1, Duration.ofSeconds(1));
        until(() -> reads.get() >= 4);
        int readsBefore = reads.get();
        // Due 10 ms or so after the first: within a sweep of the watcher's next wake, so it does not
        // wake the watcher, which cancels the first at its deadline and the second at the sweep
        // after, at most a sweep late.
        Thread.sleep(10);
        RunningJob second = start(2, Duration.ofSeconds(1));
        assertThat(reads.get()).isEqualTo(readsBefore);
        until(() -> first.cause() != null && second.cause() != null);
        assertThat(first.cause()).isEqualTo(RunningJob.Cause.TIMEOUT);
        assertThat(second.cause()).isEqualTo(RunningJob.Cause.TIMEOUT);
    }

    @Test
    void aJobWithoutATimeoutIsNeverCancelledAndWakesNothing() throws Exception {
        watcher.start();
        until(() -> reads.get() >= 2);
        RunningJob job = SlotsTest.job(1);
        job.started();
        job.bind(Thread.currentThread(), null, 0);
        running.add(job);
        watcher.deadlineSet(job);
        Thread.sleep(100);
        assertThat(reads.get()).isEqualTo(2);
        assertThat(job.cause()).isNull();
    }
}
