package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.QueueExecutor;
import dev.runnel.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Which threads claimed jobs run on, on virtual threads: short jobs of one claim share a few,
 * jobs that block each get one of their own at once, and no job is left waiting while a slot is
 * free, however launches and ending threads interleave. At most once and without listeners, so
 * that no outcome goes to the completer (never started here) and every slot frees as its job ends.
 */
class JobLauncherThreadsTest {
    /** What a job does besides being counted. */
    private interface Body {
        void run(long id) throws Exception;
    }

    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final Set<Long> ran = ConcurrentHashMap.newKeySet();
    private final AtomicLong runs = new AtomicLong();

    private JobLauncher launcher(Slots slots, Body body) {
        JobRunner runner = new JobRunner(Map.of("step", new WorkUnit<>("step", JobLauncherTest.Step.class, job -> {
            threads.add(Thread.currentThread());
            ran.add(job.id());
            runs.incrementAndGet();
            body.run(job.id());
        })), Clock.systemUTC(), Duration.ZERO, RetryPolicy.DEFAULT, Hooks.NONE, ArgsCodec.DEFAULT);
        return new JobLauncher("q", true, new QueueExecutor.VirtualThreads(), slots, runner,
                JobLauncherTest.unstartedCompleter(), Clock.systemUTC(), ids -> new long[0]);
    }

    /** Every job ended and every slot free (a job's slot frees just after the job stops being held). */
    private static void awaitIdle(Slots slots) throws InterruptedException {
        Eventually.until("no job held, no slot taken", Duration.ofSeconds(30),
                () -> slots.held() == 0 && slots.active() == 0);
    }

    @Test
    void aClaimOfJobsThatEndAtOnceRunsOnAFewThreadsNotOneEach() throws Exception {
        Slots slots = new Slots(1_000);
        JobLauncher launcher = launcher(slots, id -> {});
        for (long id = 1; id <= 1_000; id++) {
            launcher.launch(JobLauncherTest.row(id));
        }
        awaitIdle(slots);
        assertThat(ran).hasSize(1_000);
        assertThat(runs.get()).isEqualTo(1_000);
        // One thread each before; a handful now. Half is a bound no scheduling comes near.
        assertThat(threads).hasSizeLessThan(500);
    }

    @Test
    void jobsThatBlockEachStartAtOnceOnAThreadOfTheirOwn() throws Exception {
        Slots slots = new Slots(50);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger blocked = new AtomicInteger();
        JobLauncher launcher = launcher(slots, id -> {
            blocked.incrementAndGet();
            gate.await(30, TimeUnit.SECONDS);
        });
        for (long id = 1; id <= 50; id++) {
            launcher.launch(JobLauncherTest.row(id));
        }
        Eventually.until("all 50 jobs running at once", Duration.ofSeconds(30), () -> blocked.get() == 50);
        assertThat(threads).hasSize(50);
        assertThat(slots.active()).isEqualTo(50);
        gate.countDown();
        awaitIdle(slots);
        assertThat(ran).hasSize(50);
    }

    @Test
    void noJobIsLeftWaitingWhileASlotIsFreeAsLaunchesAndBeginningThreadsInterleave() throws Exception {
        // Rounds of a few jobs that each wait until every job of their round has started: a job
        // left waiting ahead with a slot free, no thread on its way to it, would stop its round.
        Slots slots = new Slots(8);
        AtomicInteger started = new AtomicInteger();
        CountDownLatch[] gate = {new CountDownLatch(1)};
        JobLauncher launcher = launcher(slots, id -> {
            CountDownLatch round = gate[0];
            started.incrementAndGet();
            round.await(30, TimeUnit.SECONDS);
        });
        long id = 0;
        for (int round = 0; round < 2_000; round++) {
            started.set(0);
            gate[0] = new CountDownLatch(1);
            int size = ThreadLocalRandom.current().nextInt(1, 9);
            for (int i = 0; i < size; i++) {
                launcher.launch(JobLauncherTest.row(++id));
                for (int spin = ThreadLocalRandom.current().nextInt(200); spin > 0; spin--) {
                    Thread.onSpinWait();
                }
            }
            int expected = size;
            Eventually.until("all " + size + " jobs of round " + round + " started", Duration.ofSeconds(10),
                    () -> started.get() == expected);
            gate[0].countDown();
            awaitIdle(slots);
        }
        assertThat(runs.get()).isEqualTo(id);
    }
}
