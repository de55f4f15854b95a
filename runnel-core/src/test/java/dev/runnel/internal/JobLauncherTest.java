package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.QueueExecutor;
import dev.runnel.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Jobs claimed ahead of a free slot, behind one that blocks: a cancel or a stop while they wait
 * keeps them from running, and those that waited too long go back. The outcomes go to a completer
 * that is never started: what is checked here is what ran and what is still held.
 */
class JobLauncherTest {
    record Step(long n) implements JobArgs {
        @Override
        public String kind() {
            return "step";
        }
    }

    private final List<Long> ran = new CopyOnWriteArrayList<>();
    private final CountDownLatch gate = new CountDownLatch(1);
    /** Holds job 11 once it runs, until the test opens it; an interrupt that reaches it is noted. */
    private final CountDownLatch held = new CountDownLatch(1);
    private final List<Long> interrupted = new CopyOnWriteArrayList<>();
    private final List<long[]> askedForCancels = new ArrayList<>();
    private long[] cancelsRequested = new long[0];
    private final Slots slots = new Slots(1);

    private JobLauncher launcher() {
        return launcher(new QueueExecutor.VirtualThreads());
    }

    private JobLauncher launcher(QueueExecutor executor) {
        JobRunner runner = new JobRunner(Map.of("step", new WorkUnit<>("step", Step.class, job -> {
            ran.add(job.id());
            if (job.id() == 1) {
                gate.await(); // the first job holds the only slot until the test opens the gate
            } else if (job.id() == 11) {
                try {
                    held.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.add(job.id());
                    throw e;
                }
            }
        })), Clock.systemUTC(), Duration.ZERO, RetryPolicy.DEFAULT, Hooks.NONE, ArgsCodec.DEFAULT);
        return new JobLauncher("q", false, executor, slots, runner, unstartedCompleter(),
                Clock.systemUTC(), ids -> {
                    askedForCancels.add(ids);
                    return cancelsRequested;
                });
    }

    /** A completer that is never started: the outcomes handed to it stay there. */
    static Completer unstartedCompleter() {
        return new Completer(null, List.of(), new Completer.Config(100, Duration.ofMillis(5),
                Duration.ofSeconds(1), "c"), Clock.systemUTC(), RetryPolicy.DEFAULT, RuntimeListeners.NONE);
    }

    /** A job of kind {@code step}, running in its first attempt of client {@code c}. */
    static JobRow row(long id) {
        Instant now = Instant.now();
        return new JobRow(id, "step", "{\"n\":" + id + "}", JobState.RUNNING, "q", 1, 1, 25, Optional.of(now),
                List.of("c"), now, now, Optional.empty(), List.of(), "{}", List.of());
    }

    private RunningJob inFlight(JobLauncher launcher, long id) {
        return launcher.running().stream().filter(j -> j.row.id() == id).findFirst().orElseThrow();
    }

    private void awaitRan(long id) throws InterruptedException {
        Eventually.until("job " + id + " ran", Duration.ofSeconds(30), () -> ran.contains(id));
    }

    private void awaitNothingHeld() throws InterruptedException {
        Eventually.until("no job still held", Duration.ofSeconds(30), () -> slots.held() == 0);
    }

    @Test
    void aJobCancelledWhileItWaitsAheadDoesNotRunAndTheNextOneDoes() throws Exception {
        JobLauncher launcher = launcher();
        for (long id = 1; id <= 3; id++) {
            launcher.launch(row(id));
        }
        assertThat(slots.held()).isEqualTo(3);
        inFlight(launcher, 2).cancel(RunningJob.Cause.CANCEL, "cancelled by an operator");
        gate.countDown();
        awaitNothingHeld();
        assertThat(ran).containsExactly(1L, 3L);
        assertThat(slots.active()).isZero();
    }

    @Test
    void aStopWhileJobsWaitAheadStartsNoneOfThem() throws Exception {
        JobLauncher launcher = launcher();
        for (long id = 1; id <= 4; id++) {
            launcher.launch(row(id));
        }
        awaitRan(1L);
        launcher.cancelAll("client stopping");
        // The running job is interrupted out of its wait; the slot then passes over the three behind it.
        awaitNothingHeld();
        assertThat(ran).containsExactly(1L);
        assertThat(launcher.running()).isEmpty();
    }

    @Test
    void jobsThatWaitedAheadTooLongGoBackAndOneWhoseCancelWasAskedEndsCancelled() throws Exception {
        JobLauncher launcher = launcher();
        for (long id = 1; id <= 3; id++) {
            launcher.launch(row(id));
        }
        slots.aheadLimit(10);
        RunningJob second = inFlight(launcher, 2);
        RunningJob third = inFlight(launcher, 3);
        cancelsRequested = new long[] {3};
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(AheadJobs.WAIT_MAX) + 10); // they wait past the limit
        launcher.giveBackStale();

        assertThat(askedForCancels).hasSize(1);
        assertThat(askedForCancels.getFirst()).containsExactly(2, 3);
        assertThat(slots.held()).as("only the running job is still held").isEqualTo(1);
        assertThat(slots.aheadLimit()).as("nothing more is claimed ahead for now").isZero();
        assertThat(second.cause()).as("goes back as it was").isNull();
        assertThat(third.cause()).isEqualTo(RunningJob.Cause.CANCEL);
        assertThat(launcher.running()).extracting(j -> j.row.id()).containsExactly(1L);

        gate.countDown();
        awaitNothingHeld();
        assertThat(ran).as("the jobs given back do not run here").containsExactly(1L);
    }

    @ParameterizedTest
    @MethodSource("executors")
    void aLateCancelOfAFinishedJobDoesNotInterruptTheJobThatRunsNextOnItsThread(QueueExecutor executor)
            throws Exception {
        JobLauncher launcher = launcher(executor);
        launcher.launch(row(1));
        launcher.launch(row(11)); // waits ahead: it runs on job 1's thread once job 1 ends
        RunningJob first = inFlight(launcher, 1);
        gate.countDown();
        awaitRan(11L);
        // A cancel watcher that listed job 1 before it ended asks for its cancel only now.
        first.cancel(RunningJob.Cause.CANCEL, "cancelled by an operator");
        held.countDown();
        awaitNothingHeld();
        assertThat(interrupted).as("jobs interrupted by a cancel meant for another").isEmpty();
        assertThat(ran).containsExactly(1L, 11L);
        launcher.releaseThreads();
    }

    static List<QueueExecutor> executors() {
        return List.of(new QueueExecutor.VirtualThreads(), new QueueExecutor.PlatformThreads(0));
    }
}
