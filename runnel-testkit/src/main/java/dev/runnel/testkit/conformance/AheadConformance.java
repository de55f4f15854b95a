package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertRequest;
import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.RuntimeListener;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Jobs claimed ahead of free slots: once jobs prove short, a claim takes more than the free slots,
 * and the extra jobs wait in memory for a slot. They never run more at once than the slots, each
 * runs once, and one cancelled, or stopped, before its slot came does not run.
 */
public abstract class AheadConformance extends DriverConformance {
    private static final int QUICK = 0;
    private static final int BLOCK = 1;

    private final EventRecorder events = new EventRecorder();
    private final AtomicInteger runningNow = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();
    private final Set<Integer> ran = ConcurrentHashMap.newKeySet();
    private final Set<Long> ranIds = ConcurrentHashMap.newKeySet();
    private final AtomicInteger ranTwice = new AtomicInteger();
    /** The most jobs a claim asked for. */
    private final AtomicInteger mostRequested = new AtomicInteger();
    private final CountDownLatch blockerStarted = new CountDownLatch(1);
    private final CountDownLatch releaseBlocker = new CountDownLatch(1);
    /** Run by the blocking job as it starts, while the jobs claimed with it have only just been claimed. */
    private volatile Runnable onBlockerStart = () -> {};
    /** The client {@link #blockedWithJobsAhead} started, and the batch it inserted: the blocker, then the quick jobs. */
    private volatile Runnel worked;
    private final CompletableFuture<List<Long>> batch = new CompletableFuture<>();

    /** A client of {@code slots} slots whose jobs are quick, or block until released (value {@link #BLOCK}). */
    private RunnelBuilder counting(int slots, Runnel.Delivery delivery) {
        return client().queue("default", slots, delivery)
                .runtimeListener(new RuntimeListener() {
                    @Override
                    public void claimed(String queue, int requested, int claimed, Duration took) {
                        mostRequested.accumulateAndGet(requested, Math::max);
                    }
                })
                .worker(TestArgs.class, job -> {
                    mostAtOnce.accumulateAndGet(runningNow.incrementAndGet(), Math::max);
                    try {
                        ranIds.add(job.id());
                        if (!ran.add(Integer.parseInt(job.args().name()))) {
                            ranTwice.incrementAndGet();
                        }
                        if (job.args().value() == BLOCK) {
                            onBlockerStart.run();
                            blockerStarted.countDown();
                            releaseBlocker.await();
                        }
                    } finally {
                        runningNow.decrementAndGet();
                    }
                })
                .listener(events);
    }

    /** Inserts jobs numbered {@code from} on, in one batch, in order: {@code kinds} says which block. */
    private List<Long> insert(int from, int... kinds) {
        List<InsertRequest> requests = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            requests.add(InsertRequest.of(new TestArgs(Integer.toString(from + i), kinds[i])));
        }
        return inserter().insertMany(requests).stream().map(dev.runnel.InsertResult::id).toList();
    }

    private static int[] quick(int n) {
        return IntStream.range(0, n).map(i -> QUICK).toArray();
    }

    private void shortJobsRunOnceNeverMoreThanTheSlots(Runnel.Delivery delivery) {
        int n = 3_000;
        insert(0, quick(n));
        started(counting(3, delivery));
        Await.until("all jobs ran", Duration.ofSeconds(60), () -> ran.size() == n);
        assertThat(ranTwice).hasValue(0);
        assertThat(mostAtOnce.get()).isBetween(1, 3);
        assertThat(mostRequested.get()).as("a claim took jobs ahead of the 3 slots").isGreaterThan(3);
    }

    @Test
    void shortJobsAreClaimedAheadAtLeastOnceAndRunOnceNeverMoreThanTheSlots() {
        shortJobsRunOnceNeverMoreThanTheSlots(Runnel.Delivery.AT_LEAST_ONCE);
        events.awaitCount(3_000, Duration.ofSeconds(30));
        assertThat(events.events()).allSatisfy(e -> assertThat(e.type()).isEqualTo(JobEvent.Type.COMPLETED));
    }

    @Test
    void shortJobsAreClaimedAheadAtMostOnceAndRunOnceNeverMoreThanTheSlots() {
        shortJobsRunOnceNeverMoreThanTheSlots(Runnel.Delivery.AT_MOST_ONCE);
    }

    /**
     * One slot, held by a job that blocks, with quick jobs claimed behind it: returns the client,
     * and the quick jobs' ids that wait in memory (running in the table, not started).
     */
    private Runnel blockedWithJobsAhead(List<Long> behind) {
        insert(0, quick(1_000));
        Runnel runnel = started(counting(1, Runnel.Delivery.AT_LEAST_ONCE));
        worked = runnel;
        Await.until("the quick jobs ran", Duration.ofSeconds(30), () -> ran.size() == 1_000);
        List<Long> ids = insert(1_000, 1, 0, 0, 0, 0, 0);
        batch.complete(ids);
        Await.until("the blocker started", Duration.ofSeconds(30), () -> blockerStarted.getCount() == 0);
        for (long id : ids.subList(1, ids.size())) {
            if (runnel.jobGet(id).orElseThrow().state() == JobState.RUNNING) {
                behind.add(id);
            }
        }
        assertThat(behind).as("jobs claimed ahead of the one busy slot").isNotEmpty();
        assertThat(runningNow).hasValue(1);
        return runnel;
    }

    @Test
    void aJobCancelledWhileClaimedAheadDoesNotRun() {
        // Cancelled through the client working it, which hears of it at once, as soon as the job
        // holding the one slot starts: while the next job waits ahead, just claimed. Or, had that
        // claim left it out, in the table.
        AtomicReference<JobState> cancelledAs = new AtomicReference<>();
        onBlockerStart = () -> cancelledAs.set(worked.jobs().cancel(batch.join().get(1)).state());
        Runnel runnel = blockedWithJobsAhead(new ArrayList<>());
        long cancelled = batch.join().get(1);
        assertThat(cancelledAs.get()).isIn(JobState.RUNNING, JobState.CANCELLED);
        // Ended cancelled while the one slot is still taken: by the client, or by its going back.
        Await.until("the job to be cancelled", Duration.ofSeconds(30),
                () -> runnel.jobGet(cancelled).orElseThrow().state() == JobState.CANCELLED);
        releaseBlocker.countDown();
        List<Long> others = batch.join().subList(2, batch.join().size());
        Await.until("all other jobs ran", Duration.ofSeconds(30),
                () -> ran.size() >= 1_000 + 6 - 1 && ranIds.containsAll(others));
        // Stopped, it runs nothing more: had the cancelled job been kept to run, it has run by now.
        runnel.stop(Duration.ofSeconds(5));
        assertThat(ranIds).doesNotContain(cancelled);
        assertThat(ran).hasSize(1_000 + 6 - 1);
        assertThat(ranTwice).hasValue(0);
        assertThat(runnel.jobGet(cancelled).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void jobsClaimedAheadThatWaitTooLongGoBackToTheTable() {
        List<Long> behind = new ArrayList<>();
        Runnel runnel = blockedWithJobsAhead(behind);
        // The one slot stays taken: after 50 ms of waiting they go back, available to any client.
        Await.until("the jobs waiting ahead went back", Duration.ofSeconds(10),
                () -> behind.stream().allMatch(id -> runnel.jobGet(id).orElseThrow().state() == JobState.AVAILABLE));
        for (long id : behind) {
            assertThat(runnel.jobGet(id).orElseThrow().attempt()).as("an attempt that never started").isZero();
        }
        assertThat(ranIds).doesNotContainAnyElementsOf(behind);
        releaseBlocker.countDown();
        Await.until("all jobs ran", Duration.ofSeconds(30), () -> ran.size() == 1_000 + 6);
        assertThat(ranTwice).hasValue(0);
        for (long id : behind) {
            Await.until("job " + id + " completed", Duration.ofSeconds(30),
                    () -> runnel.jobGet(id).orElseThrow().state() == JobState.COMPLETED);
            assertThat(runnel.jobGet(id).orElseThrow().attempt()).isEqualTo(1);
        }
    }

    @Test
    void jobsClaimedAheadGoBackUnstartedWhenTheStopCancels() {
        List<Long> behind = new ArrayList<>();
        Runnel runnel = blockedWithJobsAhead(behind);
        runnel.stop(Duration.ofMillis(200));
        assertThat(ran).hasSize(1_001);
        assertThat(ranIds).doesNotContainAnyElementsOf(behind);
        for (long id : behind) {
            // Back through the stop's cancel (retryable), or given back after waiting (available).
            JobRow row = driver.jobGet(id).orElseThrow();
            assertThat(row.state()).isIn(JobState.RETRYABLE, JobState.AVAILABLE);
            assertThat(row.attempt()).as("an attempt that never started is not counted").isZero();
        }
        assertThat(driver.jobList(dev.runnel.JobQuery.inStates(JobState.RUNNING))).isEmpty();
        assertThat(ranTwice).hasValue(0);
    }
}
