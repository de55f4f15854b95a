package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.Timeout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SleepingTimerTest {
    @Test
    void aTimeoutRunsOnceWhenDue() throws InterruptedException {
        SleepingTimer timer = new SleepingTimer("sleeping-timer-due");
        try {
            CountDownLatch ran = new CountDownLatch(1);
            long t0 = System.nanoTime();
            Timeout timeout = timer.newTimeout(t -> ran.countDown(), 50, TimeUnit.MILLISECONDS);
            assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
            assertThat(timeout.isExpired()).isTrue();
            assertThat(timeout.isCancelled()).isFalse();
            assertThat(timeout.cancel()).as("an expired timeout cannot be cancelled").isFalse();
        } finally {
            timer.stop();
        }
    }

    @Test
    void aCancelledTimeoutNeverRuns() throws InterruptedException {
        SleepingTimer timer = new SleepingTimer("sleeping-timer-cancel");
        try {
            AtomicInteger runs = new AtomicInteger();
            Timeout timeout = timer.newTimeout(t -> runs.incrementAndGet(), 100, TimeUnit.MILLISECONDS);
            assertThat(timeout.cancel()).isTrue();
            assertThat(timeout.cancel()).isFalse();
            Thread.sleep(400);
            assertThat(runs).hasValue(0);
            assertThat(timeout.isCancelled()).isTrue();
            assertThat(timeout.isExpired()).isFalse();
        } finally {
            timer.stop();
        }
    }

    @Test
    void withNothingPendingItsThreadSleepsUntilATimeoutIsScheduled() throws InterruptedException {
        String name = "sleeping-timer-idle";
        SleepingTimer timer = new SleepingTimer(name);
        try {
            CountDownLatch ran = new CountDownLatch(1);
            timer.newTimeout(t -> ran.countDown(), 10, TimeUnit.MILLISECONDS);
            assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
            Thread thread = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name))
                    .findFirst().orElseThrow();
            assertThat(thread.isDaemon()).isTrue();
            // Not TIMED_WAITING, as a ticking timer's thread would be between its ticks.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (thread.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(thread.getState()).isEqualTo(Thread.State.WAITING);
        } finally {
            timer.stop();
        }
    }

    @Test
    void stopGivesBackTheTimeoutsThatHadNotRun() {
        SleepingTimer timer = new SleepingTimer("sleeping-timer-stop");
        Timeout first = timer.newTimeout(t -> {}, 1, TimeUnit.MINUTES);
        Timeout second = timer.newTimeout(t -> {}, 2, TimeUnit.MINUTES);
        Timeout cancelled = timer.newTimeout(t -> {}, 3, TimeUnit.MINUTES);
        cancelled.cancel();
        assertThat(timer.stop()).containsExactlyInAnyOrder(first, second);
    }
}
