package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.JobCancelRequestedParams;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.ForwardingDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * One queue's producer blocked in the driver holds up no other queue: the thread that inserts, and
 * on a driver with listen/notify the listener that delivers every queue's insert signals, never
 * wait on a producer. Here the blocked producer is giving back jobs it claimed ahead (it asks the
 * table which of them have a cancel requested, and that call hangs), while a job is inserted into
 * another queue of the same client, whose poll is too far off to find it: only the insert's signal
 * can start it.
 */
public abstract class ProducerIsolationConformance extends DriverConformance {
    private static final int BLOCK = 1;
    private static final String SLOW = "slow";
    private static final String FAST = "fast";

    private final CountDownLatch giveBackBlocked = new CountDownLatch(1);
    private final CountDownLatch releaseGiveBack = new CountDownLatch(1);
    private final CountDownLatch blockerStarted = new CountDownLatch(1);
    private final CountDownLatch releaseBlocker = new CountDownLatch(1);
    private final AtomicInteger quickRan = new AtomicInteger();

    /** The driver, but the slow queue's producer hangs when it asks which jobs going back have a cancel requested. */
    private ForwardingDriver hangingGiveBack() {
        return new ForwardingDriver(driver) {
            @Override
            public long[] jobCancelRequested(JobCancelRequestedParams params) {
                if (Thread.currentThread().getName().equals("runnel-producer-" + SLOW)) {
                    giveBackBlocked.countDown();
                    try {
                        releaseGiveBack.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.jobCancelRequested(params);
            }
        };
    }

    @Test
    void aProducerBlockedInTheDriverDoesNotDelayAnotherQueuesInsertToStart() {
        Runnel runnel = started(client()
                .driver(hangingGiveBack())
                .fetchPollInterval(Duration.ofSeconds(60))
                .queue(SLOW, 1)
                .queue(FAST, 4)
                .worker(TestArgs.class, job -> {
                    if (job.args().value() == BLOCK) {
                        blockerStarted.countDown();
                        releaseBlocker.await();
                    } else {
                        quickRan.incrementAndGet();
                    }
                }));
        try {
            // Quick jobs first, so that the slow queue claims ahead of its one slot ...
            runnel.insertMany(quickJobs(1_000, 0));
            Await.until("the quick jobs ran", Duration.ofSeconds(60), () -> quickRan.get() == 1_000);
            // ... then one that holds the slot, and quick ones that wait ahead behind it until
            // they go back, which hangs.
            List<InsertRequest> blocked = new ArrayList<>();
            blocked.add(new InsertRequest(new TestArgs("blocker", BLOCK), slow()));
            blocked.addAll(quickJobs(20, 1_000));
            runnel.insertMany(blocked);
            Await.until("the slow queue's give-back hangs in the driver", Duration.ofSeconds(30),
                    () -> giveBackBlocked.getCount() == 0);
            assertThat(blockerStarted.getCount()).isZero();

            // On listen/notify, from another client: its signals come through the listener thread.
            Runnel via = driver.supportsListenNotify() ? inserter() : runnel;
            long fast = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                via.insert(new TestArgs("more slow", 0), slow());
                return via.insert(new TestArgs("fast", 0), InsertOptions.builder().queue(FAST).build()).id();
            }, "an insert waited on the blocked producer");
            long started = System.nanoTime();
            Await.until("the fast queue's job ran while the slow queue's producer hangs", Duration.ofSeconds(10),
                    () -> runnel.jobGet(fast).orElseThrow().state() == JobState.COMPLETED);
            assertThat(giveBackBlocked.getCount()).isZero();
            assertThat(releaseGiveBack.getCount()).as("still hanging while the fast job ran").isEqualTo(1);
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started))
                    .as("started by its signal, not the minute's poll").isLessThan(10);
        } finally {
            releaseGiveBack.countDown();
            releaseBlocker.countDown();
        }
    }

    private static InsertOptions slow() {
        return InsertOptions.builder().queue(SLOW).build();
    }

    private static List<InsertRequest> quickJobs(int n, int from) {
        List<InsertRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(new InsertRequest(new TestArgs(Integer.toString(from + i), 0), slow()));
        }
        return requests;
    }
}
