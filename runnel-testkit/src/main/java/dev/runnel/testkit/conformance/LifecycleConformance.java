package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobCancel;
import dev.runnel.JobDiscard;
import dev.runnel.JobEvent;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobSnooze;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import dev.runnel.testkit.ForwardingDriver;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each outcome of a worked job, end to end through a running client. */
public abstract class LifecycleConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();

    private Runnel run(Worker<TestArgs> worker) {
        return started(client().queue("default", 10).worker(TestArgs.class, worker).listener(events));
    }

    private JobRow job(Runnel runnel, long id) {
        return runnel.jobGet(id).orElseThrow();
    }

    @Test
    void completedJob() {
        AtomicInteger seen = new AtomicInteger();
        Runnel runnel = run(job -> seen.set(job.args().value()));
        long id = runnel.insert(new TestArgs("ok", 42)).id();
        JobEvent event = events.await(id);
        assertThat(event.type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(seen).hasValue(42);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.COMPLETED);
        assertThat(row.attempt()).isEqualTo(1);
        assertThat(row.finalizedAt()).contains(T0);
        assertThat(row.attemptedBy()).containsExactly(runnel.id());
    }

    @Test
    void failureIsRetryableWithBackoffAndRecordedError() {
        Runnel runnel = run(job -> {
            throw new IllegalStateException("payment gateway down");
        });
        long id = runnel.insert(new TestArgs("fails", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.finalizedAt()).isEmpty();
        // Attempt 1: 1^4 = 1 s, with at most 10% jitter either way.
        assertThat(row.scheduledAt()).isBetween(T0.plusMillis(900), T0.plusMillis(1100));
        assertThat(row.errors()).singleElement().satisfies(e -> {
            assertThat(e.attempt()).isEqualTo(1);
            assertThat(e.at()).isEqualTo(T0);
            assertThat(e.message()).contains("IllegalStateException").contains("payment gateway down");
            assertThat(e.trace()).contains("LifecycleConformance");
        });
    }

    @Test
    void backoffGrowsAsAttemptToTheFourth() {
        Runnel runnel = run(job -> {
            throw new RuntimeException("again");
        });
        long id = runnel.insert(new TestArgs("fails", 1)).id();
        events.await(id, 1);
        for (int attempt = 2; attempt <= 3; attempt++) {
            clock.set(job(runnel, id).scheduledAt());
            JobEvent event = events.await(id, attempt);
            assertThat(event.job().attempt()).isEqualTo(attempt);
            JobRow row = job(runnel, id);
            double expected = Math.pow(attempt, 4) * 1000;
            long actual = Duration.between(clock.instant(), row.scheduledAt()).toMillis();
            assertThat((double) actual).isBetween(expected * 0.9, expected * 1.1);
            assertThat(row.errors()).hasSize(attempt);
        }
    }

    @Test
    void workerChoosesItsOwnRetryDelay() {
        Runnel runnel = run(new Worker<>() {
            @Override
            public void work(dev.runnel.Job<TestArgs> job) {
                throw new RuntimeException("custom");
            }

            @Override
            public Optional<Duration> retryDelay(dev.runnel.Job<TestArgs> job) {
                return Optional.of(Duration.ofMinutes(7));
            }
        });
        long id = runnel.insert(new TestArgs("x", 1)).id();
        events.await(id);
        assertThat(job(runnel, id).scheduledAt()).isEqualTo(T0.plus(Duration.ofMinutes(7)));
    }

    @Test
    void outOfAttemptsIsDiscarded() {
        Runnel runnel = run(job -> {
            throw new RuntimeException("always");
        });
        long id = runnel.insert(new TestArgs("x", 1), InsertOptions.builder().maxAttempts(2).build()).id();
        assertThat(events.await(id, 1).type()).isEqualTo(JobEvent.Type.FAILED);
        clock.advance(Duration.ofSeconds(2));
        JobEvent last = events.await(id, 2);
        assertThat(last.type()).isEqualTo(JobEvent.Type.DISCARDED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.DISCARDED);
        assertThat(row.attempt()).isEqualTo(2);
        assertThat(row.finalizedAt()).contains(clock.instant());
        assertThat(row.errors()).hasSize(2);
    }

    @Test
    void snoozeReschedulesWithoutUsingAnAttempt() {
        AtomicInteger runs = new AtomicInteger();
        Runnel runnel = run(job -> {
            if (runs.incrementAndGet() == 1) {
                throw new JobSnooze(Duration.ofMinutes(5));
            }
        });
        long id = runnel.insert(new TestArgs("s", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.SNOOZED);
        JobRow snoozed = job(runnel, id);
        assertThat(snoozed.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(snoozed.scheduledAt()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
        assertThat(snoozed.attempt()).isZero();
        assertThat(snoozed.snoozes()).isEqualTo(1);
        assertThat(snoozed.errors()).isEmpty();
        clock.advance(Duration.ofMinutes(5));
        assertThat(events.await(id, 2).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(job(runnel, id).attempt()).isEqualTo(1);
        assertThat(job(runnel, id).snoozes()).isEqualTo(1);
    }

    @Test
    void aWorkerSeesHowOftenItsJobWasSnoozed() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Runnel runnel = started(client().queue("default", 10).schedulerInterval(Duration.ofHours(1)).listener(events)
                .worker(TestArgs.class, job -> {
                    seen.add(job.snoozes());
                    if (job.snoozes() < 3) {
                        throw new JobSnooze(Duration.ZERO);
                    }
                }));
        long id = runnel.insert(new TestArgs("poll", 1)).id();
        assertThat(events.await(id, 4).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(seen).containsExactly(0, 1, 2, 3);
        JobRow row = job(runnel, id);
        assertThat(row.snoozes()).isEqualTo(3);
        assertThat(row.attempt()).as("snoozes use no attempts").isEqualTo(1);
    }

    @Test
    void snoozeOfZeroMakesTheJobAvailableAtOnceWithoutUsingAnAttempt() {
        AtomicInteger runs = new AtomicInteger();
        // No scheduler tick after the first: only a job made available, not scheduled, runs again.
        Runnel runnel = started(client().queue("default", 10).schedulerInterval(Duration.ofHours(1)).listener(events)
                .worker(TestArgs.class, job -> {
                    if (runs.incrementAndGet() == 1) {
                        throw new JobSnooze(Duration.ZERO);
                    }
                }));
        long id = runnel.insert(new TestArgs("again", 1)).id();
        JobEvent snoozed = events.await(id);
        assertThat(snoozed.type()).isEqualTo(JobEvent.Type.SNOOZED);
        assertThat(snoozed.newState()).isEqualTo(JobState.AVAILABLE);
        // The clock stands still: the job runs again with no time passing.
        JobEvent completed = events.await(id, 2);
        assertThat(completed.type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(completed.job().attempt()).isEqualTo(1);
        assertThat(runs).hasValue(2);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.COMPLETED);
        assertThat(row.attempt()).isEqualTo(1);
        assertThat(row.scheduledAt()).isEqualTo(T0);
        assertThat(row.errors()).isEmpty();
        assertThat(row.attemptedBy()).containsExactly(runnel.id(), runnel.id());
    }

    @Test
    void snoozeAfterARetryKeepsTheAttemptCountAndTheErrors() {
        AtomicInteger runs = new AtomicInteger();
        Runnel runnel = run(job -> {
            switch (runs.incrementAndGet()) {
                case 1 -> throw new IllegalStateException("first try fails");
                case 2 -> throw new JobSnooze(Duration.ofMinutes(5));
                default -> { }
            }
        });
        long id = runnel.insert(new TestArgs("s", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow failed = job(runnel, id);
        assertThat(failed.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(failed.attempt()).isEqualTo(1);
        assertThat(failed.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("first try fails"));

        clock.set(failed.scheduledAt());
        JobEvent snoozedEvent = events.await(id, 2);
        assertThat(snoozedEvent.type()).isEqualTo(JobEvent.Type.SNOOZED);
        assertThat(snoozedEvent.job().attempt()).isEqualTo(2);
        JobRow snoozed = job(runnel, id);
        assertThat(snoozed.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(snoozed.attempt()).as("the snoozed second attempt does not count").isEqualTo(1);
        assertThat(snoozed.scheduledAt()).isEqualTo(clock.instant().plus(Duration.ofMinutes(5)));
        assertThat(snoozed.errors()).isEqualTo(failed.errors());
        assertThat(snoozed.finalizedAt()).isEmpty();

        clock.advance(Duration.ofMinutes(5));
        JobEvent completed = events.await(id, 3);
        assertThat(completed.type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(completed.job().attempt()).isEqualTo(2);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.COMPLETED);
        assertThat(row.attempt()).isEqualTo(2);
        assertThat(row.errors()).isEqualTo(failed.errors());
        assertThat(row.attemptedBy()).containsExactly(runnel.id(), runnel.id(), runnel.id());
        assertThat(runs).hasValue(3);
    }

    @Test
    void cancelIsFinalWithReason() {
        Runnel runnel = run(job -> {
            throw new JobCancel("order was refunded");
        });
        long id = runnel.insert(new TestArgs("c", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.CANCELLED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.CANCELLED);
        assertThat(row.finalizedAt()).contains(T0);
        assertThat(row.lastError().orElseThrow().message()).contains("order was refunded");
    }

    @Test
    void discardIsFinalWithReason() {
        Runnel runnel = run(job -> {
            throw new JobDiscard("malformed address");
        });
        long id = runnel.insert(new TestArgs("d", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.DISCARDED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.DISCARDED);
        assertThat(row.finalizedAt()).isPresent();
        assertThat(row.lastError().orElseThrow().message()).contains("malformed address");
    }

    @Test
    void timeoutCancelsTheAttemptAndRetries() {
        AtomicBoolean sawCancel = new AtomicBoolean();
        Runnel runnel = started(client().queue("default", 10).jobTimeout(Duration.ofMillis(100)).listener(events)
                .worker(TestArgs.class, job -> {
                    try {
                        Thread.sleep(30_000);
                    } finally {
                        sawCancel.set(job.isCancelled());
                    }
                }));
        long id = runnel.insert(new TestArgs("slow", 1)).id();
        JobEvent event = events.await(id);
        assertThat(event.type()).isEqualTo(JobEvent.Type.FAILED);
        assertThat(event.runTime()).isLessThan(Duration.ofSeconds(10));
        assertThat(sawCancel).isTrue();
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.lastError().orElseThrow().message()).contains("timed out after 100 ms");
    }

    @Test
    void perWorkerTimeoutOverridesTheClientDefault() {
        Runnel runnel = started(client().queue("default", 10).listener(events).worker(TestArgs.class, new Worker<>() {
            @Override
            public void work(dev.runnel.Job<TestArgs> job) throws Exception {
                Thread.sleep(30_000);
            }

            @Override
            public Optional<Duration> timeout(dev.runnel.Job<TestArgs> job) {
                return Optional.of(Duration.ofMillis(50));
            }
        }));
        long id = runnel.insert(new TestArgs("slow", 1)).id();
        assertThat(events.await(id).error().orElseThrow().message()).contains("timed out after 50 ms");
    }

    @Test
    void jobsInsertedOneAtATimeDoNotWaitOutTheFetchCooldown() {
        // Cooldown and poll far beyond the test's timeout: only an insert's signal, acted on at
        // once after a fetch that claimed jobs (or a poll), can start these jobs in time.
        Runnel runnel = started(client().fetchPollInterval(Duration.ofMinutes(10)).fetchCooldown(Duration.ofMinutes(10))
                .queue("default", 10).worker(TestArgs.class, job -> {}).listener(events));
        // Where inserts are pushed to every client, insert from another one, so that each insert is
        // one signal: the inserting client itself hears its insert twice (in process, then by
        // notification), and two empty fetches in a row (the echo racing a claim) bring back the
        // full cooldown, which at ten minutes is the test's timeout, in production 100 ms.
        Runnel inserting = driver.supportsListenNotify() ? inserter() : runnel;
        for (int i = 0; i < 3; i++) {
            long id = inserting.insert(new TestArgs("one at a time", i)).id();
            assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        }
    }

    @Test
    void aSlotFreedByALongJobIsRefilledWithoutWaitingForHalfTheSlots() {
        // Four slots; the first batch holds one job of 100 ms and three of 800 ms. After a full batch
        // the producer waits for half the slots to be free, but a slot freed by jobs that long waits
        // only a few milliseconds: the two 50 ms jobs behind them run while the 800 ms ones still do,
        // not after them (cooldown and poll are ten minutes: only the refill can start them).
        java.util.Queue<Integer> finished = new java.util.concurrent.ConcurrentLinkedQueue<>();
        inserter().insertMany(java.util.stream.IntStream.of(100, 800, 800, 800, 50, 50)
                .mapToObj(ms -> dev.runnel.InsertRequest.of(new TestArgs("sleep", ms))).toList());
        started(client().fetchPollInterval(Duration.ofMinutes(10)).fetchCooldown(Duration.ofMinutes(10))
                .queue("default", 4).worker(TestArgs.class, job -> {
                    Thread.sleep(job.args().value());
                    finished.add(job.args().value());
                }).listener(events));
        Await.until("all six jobs finished", Duration.ofSeconds(30), () -> finished.size() == 6);
        assertThat(List.copyOf(finished)).startsWith(100, 50, 50);
    }

    @Test
    void aSlotFreedByAStragglerJustAfterAFetchIsRefilledToo() {
        // Four slots: two 100 ms jobs, one of 400 ms and a 115 ms straggler. At 100 ms the two free
        // slots (half) are refilled with two 300 ms jobs; the straggler frees its slot 15 ms after
        // that fetch. Jobs are long on average, so that slot waits only a few milliseconds, not
        // for half the slots: the 10 ms job behind runs and ends long before the 300 ms ones
        // (cooldown and poll are ten minutes: only the refill can start it).
        java.util.Queue<Integer> finished = new java.util.concurrent.ConcurrentLinkedQueue<>();
        inserter().insertMany(java.util.stream.IntStream.of(100, 100, 400, 115, 300, 300, 10)
                .mapToObj(ms -> dev.runnel.InsertRequest.of(new TestArgs("sleep", ms))).toList());
        started(client().fetchPollInterval(Duration.ofMinutes(10)).fetchCooldown(Duration.ofMinutes(10))
                .queue("default", 4).worker(TestArgs.class, job -> {
                    Thread.sleep(job.args().value());
                    finished.add(job.args().value());
                }).listener(events));
        Await.until("all seven jobs finished", Duration.ofSeconds(30), () -> finished.size() == 7);
        assertThat(List.copyOf(finished)).containsSubsequence(115, 10, 300, 300);
    }

    @Test
    void undecodableArgsAreDiscardedAtOnce() {
        Runnel runnel = run(job -> {});
        long id = driver.jobInsertMany(List.of(new JobInsertParams("test_job", "{\"name\":\"x\",\"value\":\"not a number\"}",
                "default", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}"))).getFirst().id();
        runnel.insert(new TestArgs("wake", 0), InsertOptions.builder().queue("default").build());
        JobEvent event = events.await(id);
        assertThat(event.type()).isEqualTo(JobEvent.Type.DISCARDED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.DISCARDED);
        assertThat(row.attempt()).isEqualTo(1);
        assertThat(row.lastError().orElseThrow().message()).contains("could not be decoded").contains("TestArgs");
    }

    @Test
    void unknownFieldsInArgsAreIgnored() {
        java.util.Set<Integer> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Runnel runnel = run(job -> seen.add(job.args().value()));
        long id = driver.jobInsertMany(List.of(new JobInsertParams("test_job",
                "{\"name\":\"x\",\"value\":7,\"addedLater\":true}", "default", 1, JobState.AVAILABLE, T0, T0, 25,
                List.of(), "{}"))).getFirst().id();
        runnel.insert(new TestArgs("wake", 0));
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(seen).contains(7);
        assertThat(job(runnel, id).state()).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void unknownKindIsRecordedAndRetried() {
        Runnel runnel = run(job -> {});
        long id = runnel.insert(new OrphanArgs("nobody works me")).id();
        JobEvent event = events.await(id);
        assertThat(event.type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.scheduledAt()).isAfter(T0);
        assertThat(row.lastError().orElseThrow().message()).contains("no worker").contains("orphan_job");
    }

    @Test
    void scheduledJobRunsOnceDue() {
        // The scheduler's rounds, once each has come back.
        AtomicInteger rounds = new AtomicInteger();
        Driver watched = new ForwardingDriver(driver) {
            @Override
            public int jobScheduleDue(JobScheduleParams params) {
                int moved = super.jobScheduleDue(params);
                rounds.incrementAndGet();
                return moved;
            }
        };
        Runnel runnel = started(client().driver(watched).queue("default", 10).worker(TestArgs.class, job -> {})
                .listener(events));
        long id = runnel.insert(new TestArgs("later", 1), InsertOptions.builder().scheduledAt(T0.plusSeconds(90)).build()).id();
        long now = runnel.insert(new TestArgs("now", 2)).id();
        int before = rounds.get();
        events.await(now);
        // A whole scheduler round since the inserts, and a claim: had either taken it early, it shows.
        Await.until("a whole scheduler round after the inserts", () -> rounds.get() >= before + 2);
        assertThat(events.of(id)).isEmpty();
        assertThat(job(runnel, id).state()).isEqualTo(JobState.SCHEDULED);
        clock.advance(Duration.ofSeconds(90));
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
    }

    @Test
    void queuesAreIsolated() {
        Runnel runnel = started(client().queue("mail", 5).worker(TestArgs.class, job -> {}).listener(events));
        long other = runnel.insert(new TestArgs("x", 1), InsertOptions.builder().queue("billing").build()).id();
        long mine = runnel.insert(new TestArgs("y", 2), InsertOptions.builder().queue("mail").build()).id();
        events.await(mine);
        assertThat(job(runnel, other).state()).isEqualTo(JobState.AVAILABLE);
        assertThat(events.of(other)).isEmpty();
    }

    @Test
    void concurrencyNeverExceedsTheQueueMaximum() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        Runnel runnel = started(client().queue("default", 3).listener(events).worker(TestArgs.class, job -> {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            Thread.sleep(20);
            running.decrementAndGet();
        }));
        for (int i = 0; i < 20; i++) {
            runnel.insert(new TestArgs("n", i));
        }
        events.awaitCount(20, Duration.ofSeconds(20));
        assertThat(peak.get()).isBetween(1, 3);
    }

    @Test
    void gracefulStopWaitsForRunningJobs() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Runnel runnel = run(job -> {
            started.countDown();
            Thread.sleep(200);
        });
        long id = runnel.insert(new TestArgs("finish me", 1)).id();
        started.await();
        runnel.stop(Duration.ofSeconds(10));
        assertThat(job(runnel, id).state()).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void stopCancelsJobsPastTheTimeoutAndLeavesNoneRunning() throws Exception {
        CountDownLatch started = new CountDownLatch(3);
        AtomicInteger cancelledSeen = new AtomicInteger();
        Runnel runnel = run(job -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } finally {
                if (job.isCancelled()) {
                    cancelledSeen.incrementAndGet();
                }
            }
        });
        for (int i = 0; i < 3; i++) {
            runnel.insert(new TestArgs("stuck", i));
        }
        started.await();
        long begin = System.nanoTime();
        runnel.stop(Duration.ofMillis(100));
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(5));
        assertThat(cancelledSeen).hasValue(3);
        assertThat(runnel.jobList(JobQuery.inStates(JobState.RUNNING))).isEmpty();
        assertThat(runnel.jobList(JobQuery.inStates(JobState.RETRYABLE))).hasSize(3).allSatisfy(row ->
                assertThat(row.lastError().orElseThrow().message()).contains("client stopping"));
    }

    @Test
    void stopAndCancelDoesNotWait() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Runnel runnel = run(job -> {
            started.countDown();
            Thread.sleep(60_000);
        });
        long id = runnel.insert(new TestArgs("stuck", 1)).id();
        started.await();
        runnel.stopAndCancel();
        assertThat(job(runnel, id).state()).isEqualTo(JobState.RETRYABLE);
    }

    @Test
    void atMostOnceLeavesNoRowForASuccessAndWritesBackFailures() {
        AtomicInteger runs = new AtomicInteger();
        Runnel runnel = started(client().queue("once", 5, Runnel.Delivery.AT_MOST_ONCE).listener(events)
                .worker(TestArgs.class, job -> {
                    runs.incrementAndGet();
                    if (job.args().value() == 2) {
                        throw new IllegalStateException("lost for good");
                    }
                    if (job.args().value() == 3) {
                        throw new JobCancel("not wanted");
                    }
                }));
        InsertOptions once = InsertOptions.builder().queue("once").build();
        long ok = runnel.insert(new TestArgs("ok", 1), once).id();
        long failing = runnel.insert(new TestArgs("fails", 2), once).id();
        long cancelled = runnel.insert(new TestArgs("cancel", 3), once).id();
        assertThat(events.await(ok).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(events.await(failing).type()).isEqualTo(JobEvent.Type.DISCARDED);
        assertThat(events.await(cancelled).type()).isEqualTo(JobEvent.Type.CANCELLED);
        // At most once a success is final the moment it is claimed.
        JobRow done = events.await(ok).job();
        assertThat(done.finalizedAt()).isEqualTo(done.attemptedAt());
        assertThat(done.finalizedAt().orElseThrow()).isBetween(T0, T0.plusMillis(1));
        // A success leaves no row; a failure and a cancel are written back, with their errors.
        assertThat(runnel.jobGet(ok)).isEmpty();
        JobRow lost = job(runnel, failing);
        assertThat(lost.state()).isEqualTo(JobState.DISCARDED);
        assertThat(lost.attempt()).isEqualTo(1);
        assertThat(lost.finalizedAt()).isPresent();
        assertThat(lost.lastError().orElseThrow().message()).contains("lost for good");
        JobRow cancel = job(runnel, cancelled);
        assertThat(cancel.state()).isEqualTo(JobState.CANCELLED);
        assertThat(cancel.lastError().orElseThrow().message()).contains("not wanted");
        clock.advance(Duration.ofHours(1));
        assertThat(runs).hasValue(3);
    }

    @Test
    void listenerErrorsDoNotStopTheRuntime() {
        Runnel runnel = started(client().queue("default", 5).worker(TestArgs.class, job -> {})
                .listener(e -> {
                    throw new RuntimeException("listener bug");
                })
                .listener(events));
        long a = runnel.insert(new TestArgs("a", 1)).id();
        long b = runnel.insert(new TestArgs("b", 2)).id();
        events.await(a);
        events.await(b);
        Await.until("both completed", () -> job(runnel, b).state() == JobState.COMPLETED);
    }
}
