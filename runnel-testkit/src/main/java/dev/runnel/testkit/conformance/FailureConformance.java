package dev.runnel.testkit.conformance;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.Job;
import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.JobSnooze;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import dev.runnel.Worker;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Times;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import dev.runnel.testkit.ForwardingDriver;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Every claimed job ends with a stored outcome, whatever goes wrong between its claim and its
 * write: an outcome the database refuses, a message it cannot hold, a worker's exception that
 * cannot be rendered, a delay too large to add, a stop, a write arriving after the job moved on.
 */
public abstract class FailureConformance extends DriverConformance {
    /** The marker a job's args or error carries to be refused by {@link #refuseMarkedOutcomesSql()}. */
    protected static final String MARKER = "poison";

    private final EventRecorder events = new EventRecorder();

    /**
     * SQL, run once on {@link #newConnection}, that makes the database refuse as a data error
     * (Postgres SQLSTATE class 22 or 23, a SQLite constraint) every update of {@code runnel_job}
     * that sets a job whose args contain {@value #MARKER} to completed, or stores errors containing
     * {@value #MARKER}. The refusal's own message must not contain the marker.
     */
    protected abstract String refuseMarkedOutcomesSql();

    /** Makes the database refuse marked outcomes: needs SQL (a trigger), so skipped by capability without it. */
    private void refuseMarkedOutcomes() throws SQLException {
        assumeSqlConnection();
        try (Connection c = newConnection(dir); Statement st = c.createStatement()) {
            st.execute(refuseMarkedOutcomesSql());
        }
    }

    private Runnel run(Worker<TestArgs> worker) {
        return started(client().queue("default", 20).completerFlushInterval(Duration.ofMillis(50)).listener(events)
                .worker(TestArgs.class, worker));
    }

    /** Inserts jobs named {@code names} in one batch, so that their outcomes are written together. */
    private long[] insertAll(Runnel runnel, String... names) {
        List<InsertRequest> requests = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            requests.add(InsertRequest.of(new TestArgs(names[i], i)));
        }
        return InsertResult.ids(runnel.insertMany(requests));
    }

    private JobRow job(Runnel runnel, long id) {
        return runnel.jobGet(id).orElseThrow();
    }

    @Test
    void aCompletionTheDatabaseRefusesIsStoredAsAFailureAndTheRestOfItsBatchIsWritten() throws Exception {
        refuseMarkedOutcomes();
        Runnel runnel = run(job -> {});
        long[] ids = insertAll(runnel, "a", "b", "c", MARKER, "d", "e", "f");
        for (long id : ids) {
            events.await(id);
        }
        long poisoned = ids[3];
        JobEvent event = events.await(poisoned);
        assertThat(event.type()).isEqualTo(JobEvent.Type.FAILED);
        assertThat(event.error().orElseThrow().message()).contains("could not be stored");
        JobRow row = job(runnel, poisoned);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.attempt()).isEqualTo(1);
        assertThat(row.lastError().orElseThrow().message()).contains("completed outcome of this attempt could not be stored");
        for (long id : ids) {
            if (id != poisoned) {
                assertThat(events.of(id)).singleElement().extracting(JobEvent::type).isEqualTo(JobEvent.Type.COMPLETED);
                assertThat(job(runnel, id).state()).isEqualTo(JobState.COMPLETED);
            }
        }
    }

    @Test
    void anErrorTheDatabaseRefusesIsReplacedByTheReasonAndTheRestOfItsBatchIsWritten() throws Exception {
        refuseMarkedOutcomes();
        Runnel runnel = run(job -> {
            if (job.args().name().startsWith("fail")) {
                throw new IllegalStateException(job.args().name());
            }
        });
        long[] ids = insertAll(runnel, "ok", "fail plainly", "fail " + MARKER, "ok too");
        for (long id : ids) {
            events.await(id);
        }
        assertThat(job(runnel, ids[0]).state()).isEqualTo(JobState.COMPLETED);
        assertThat(job(runnel, ids[3]).state()).isEqualTo(JobState.COMPLETED);
        assertThat(job(runnel, ids[1]).lastError().orElseThrow().message()).contains("fail plainly");
        JobRow refused = job(runnel, ids[2]);
        assertThat(refused.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(refused.errors()).singleElement().satisfies(e -> {
            assertThat(e.message()).contains("failed outcome of this attempt could not be stored").doesNotContain(MARKER);
            assertThat(e.attempt()).isEqualTo(1);
        });
    }

    @Test
    void aNulInAnErrorMessageIsStoredReadablyAndTheJobsAroundItComplete() {
        Runnel runnel = run(job -> {
            if (job.args().name().equals("nul")) {
                throw new IllegalStateException("bytes \u0000 in the middle");
            }
        });
        long[] ids = insertAll(runnel, "a", "nul", "b", "c");
        for (long id : ids) {
            events.await(id);
        }
        JobRow row = job(runnel, ids[1]);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.lastError().orElseThrow().message()).contains("bytes \\u0000 in the middle").doesNotContain("\u0000");
        assertThat(row.lastError().orElseThrow().trace()).doesNotContain("\u0000");
        for (long id : new long[] {ids[0], ids[2], ids[3]}) {
            assertThat(job(runnel, id).state()).isEqualTo(JobState.COMPLETED);
        }
    }

    /**
     * A driver whose first claim that takes jobs commits and then fails as a connection lost
     * mid-statement does: the runtime cannot tell whether it was applied. It keeps what was lost,
     * every recovery asked for since, and the order of claims and recoveries.
     */
    private static final class LostReplyDriver extends ForwardingDriver {
        private final AtomicBoolean loseNext = new AtomicBoolean(true);
        /** Each claim ({@code claim}) and recovery ({@code recover}) asked for, in order. */
        final List<String> calls = new CopyOnWriteArrayList<>();
        /** The lost claim's place in {@link #calls}. */
        volatile int lostCall = -1;
        volatile JobClaimParams lostParams;
        volatile List<JobRow> lost = List.of();
        final List<JobClaimParams> recoverParams = new CopyOnWriteArrayList<>();
        final List<JobRow> recovered = new CopyOnWriteArrayList<>();

        LostReplyDriver(Driver delegate) {
            super(delegate);
        }

        @Override
        public List<JobRow> jobClaim(JobClaimParams params) {
            int call = calls.size();
            calls.add("claim");
            List<JobRow> claimed = super.jobClaim(params);
            if (!claimed.isEmpty() && loseNext.compareAndSet(true, false)) {
                lostCall = call;
                lostParams = params;
                lost = List.copyOf(claimed);
                throw new RunnelException("the connection broke while the claim's rows were read (test)");
            }
            return claimed;
        }

        @Override
        public List<JobRow> jobClaimRecover(JobClaimParams params) {
            calls.add("recover");
            recoverParams.add(params);
            List<JobRow> found = super.jobClaimRecover(params);
            recovered.addAll(found);
            return found;
        }
    }

    /** A worker that counts each job's runs, by id. */
    private static Worker<TestArgs> counting(Map<Long, AtomicInteger> runs) {
        return job -> runs.computeIfAbsent(job.id(), id -> new AtomicInteger()).incrementAndGet();
    }

    private static List<Long> ids(List<JobRow> jobs) {
        return jobs.stream().map(JobRow::id).toList();
    }

    @Test
    void theJobsOfAClaimWhoseReplyWasLostAreRecoveredAndEachRunsOnce() {
        LostReplyDriver lossy = new LostReplyDriver(driver);
        Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
        Runnel runnel = started(client().driver(lossy).queue("default", 10).listener(events)
                .worker(TestArgs.class, counting(runs)));
        long[] first = insertAll(runnel, "a", "b", "c", "d", "e");
        for (long id : first) {
            assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        }
        // Once the lost claim is found, claims go on as before.
        long[] second = insertAll(runnel, "f", "g");
        for (long id : second) {
            assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        }
        // Stopped, it runs nothing more: a job run twice, however late, is counted by now.
        runnel.stop(Duration.ofSeconds(5));

        assertThat(lossy.lost).as("the claim whose reply was lost").isNotEmpty();
        assertThat(lossy.calls.get(lossy.lostCall + 1)).as("the next call after the lost claim").isEqualTo("recover");
        assertThat(lossy.recoverParams).as("recoveries asked for").isNotEmpty().containsOnly(lossy.lostParams);
        assertThat(ids(lossy.recovered)).containsExactlyInAnyOrderElementsOf(ids(lossy.lost));
        List<Long> all = new ArrayList<>();
        for (long id : first) {
            all.add(id);
        }
        for (long id : second) {
            all.add(id);
        }
        assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(all);
        for (long id : all) {
            assertThat(runs.get(id)).as("runs of job %d", id).hasValue(1);
            assertThat(events.of(id)).as("events of job %d", id).singleElement().extracting(JobEvent::type)
                    .isEqualTo(JobEvent.Type.COMPLETED);
            JobRow row = job(runnel, id);
            assertThat(row.state()).isEqualTo(JobState.COMPLETED);
            assertThat(row.attempt()).isEqualTo(1);
        }
    }

    @Test
    void atMostOnceAClaimWhoseReplyWasLostIsNotLookedForAndNoJobRunsTwice() {
        LostReplyDriver lossy = new LostReplyDriver(driver);
        Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
        Runnel runnel = started(client().driver(lossy).queue("default", 10, Runnel.Delivery.AT_MOST_ONCE)
                .listener(events).worker(TestArgs.class, counting(runs)));
        long[] first = insertAll(runnel, "a", "b", "c");
        Await.until("a claim whose reply was lost", () -> !lossy.lost.isEmpty());
        long[] second = insertAll(runnel, "d", "e");
        for (long id : second) {
            assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        }
        runnel.stop(Duration.ofSeconds(5));

        // The claim removed its jobs: at most once, a job whose claim's reply was lost never runs.
        assertThat(lossy.recoverParams).as("recoveries asked for").isEmpty();
        assertThat(ids(lossy.lost)).containsExactlyInAnyOrder(first[0], first[1], first[2]);
        for (long id : first) {
            assertThat(runs).as("runs of job %d", id).doesNotContainKey(id);
            assertThat(events.of(id)).isEmpty();
            assertThat(runnel.jobGet(id)).isEmpty();
        }
        for (long id : second) {
            assertThat(runs.get(id)).as("runs of job %d", id).hasValue(1);
            assertThat(events.of(id)).singleElement().extracting(JobEvent::type).isEqualTo(JobEvent.Type.COMPLETED);
        }
    }

    @Test
    void aSnoozeTooLongToAddIsClampedToTheLatestStorableTime() {
        Runnel runnel = run(job -> {
            throw new JobSnooze(Duration.ofSeconds(Long.MAX_VALUE));
        });
        long id = runnel.insert(new TestArgs("forever", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.SNOOZED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(row.scheduledAt()).isEqualTo(Times.MAX);
        assertThat(row.attempt()).isZero();
    }

    @Test
    void aRetryDelayTooLongToAddIsClampedToTheLatestStorableTime() {
        Runnel runnel = run(new Worker<>() {
            @Override
            public void work(Job<TestArgs> job) {
                throw new IllegalStateException("later, much later");
            }

            @Override
            public Optional<Duration> retryDelay(Job<TestArgs> job) {
                return Optional.of(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));
            }
        });
        long id = runnel.insert(new TestArgs("x", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
        assertThat(job(runnel, id).scheduledAt()).isEqualTo(Times.MAX);
    }

    /** An exception whose every rendering throws. */
    private static final class Unprintable extends RuntimeException {
        @Override
        public String toString() {
            throw new IllegalStateException("toString is broken");
        }

        @Override
        public String getMessage() {
            throw new IllegalStateException("getMessage is broken");
        }
    }

    @Test
    void anExceptionThatCannotBeRenderedStillGivesAReadableError() {
        Runnel runnel = run(job -> {
            throw new Unprintable();
        });
        long id = runnel.insert(new TestArgs("x", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.lastError().orElseThrow().message()).contains(Unprintable.class.getName());
    }

    @Test
    void aJobInterruptedByAGracefulStopRunsAgainWithoutLosingAnAttempt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Runnel runnel = run(job -> {
            started.countDown();
            Thread.sleep(60_000);
        });
        long id = runnel.insert(new TestArgs("last chance", 1), InsertOptions.builder().maxAttempts(1).build()).id();
        started.await();
        runnel.stop(Duration.ofMillis(50));
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.attempt()).isZero();
        assertThat(row.scheduledAt()).isEqualTo(T0);
        assertThat(row.lastError().orElseThrow().message()).contains("client stopping");
        assertThat(row.lastError().orElseThrow().attempt()).isEqualTo(1);
    }

    @Test
    void aCompletionThatDeletedItsJobButLostItsReplyIsPublishedOnce() {
        // The first completion write is applied, and then its reply is lost: the completer tries
        // again, finds nothing to delete, and reads the job back to learn what happened.
        AtomicBoolean lostOne = new AtomicBoolean();
        Driver lossy = new ForwardingDriver(driver) {
            @Override
            public long[] jobCompleteMany(dev.runnel.driver.JobCompleteManyParams params) {
                long[] written = super.jobCompleteMany(params);
                if (written.length > 0 && lostOne.compareAndSet(false, true)) {
                    throw new RunnelException("the connection was reset before the reply");
                }
                return written;
            }
        };
        Runnel runnel = started(client().driver(lossy).queue("default", 10).listener(events)
                .retention(JobState.COMPLETED, Duration.ZERO)
                .worker(TestArgs.class, job -> { }));
        long id = runnel.insert(new TestArgs("once", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(lostOne).isTrue();
        assertThat(runnel.jobGet(id)).isEmpty();
        runnel.stop(Duration.ofSeconds(5));
        assertThat(events.of(id)).singleElement().extracting(JobEvent::type).isEqualTo(JobEvent.Type.COMPLETED);
    }

    @Test
    void aLateCompletionOfAnAttemptThatMovedOnIsDroppedAndNotPublished() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletionWatch watched = new CompletionWatch(driver);
        // One slot, held by the slow job: the client cannot claim the job again itself.
        Runnel runnel = started(client().driver(watched).queue("default", 1).listener(events)
                .worker(TestArgs.class, job -> {
                    started.countDown();
                    release.await();
                }));
        long id = runnel.insert(new TestArgs("slow", 1)).id();
        started.await();
        // Behind the worker's back the attempt is given up (as the rescuer would) and claimed again.
        JobRow running = job(runnel, id);
        driver.jobSetStateMany(List.of(JobSetStateParams.of(running, JobState.AVAILABLE, T0, null, null, 0)));
        JobRow second = driver.jobClaim(new JobClaimParams("default", 1, T0.plusSeconds(1), "client-b")).getFirst();
        release.countDown();
        assertThat(watched.awaitAnswered(id)).as("the late completion wrote the job").isFalse();
        // The stop writes and publishes whatever is left: an event for the dropped write would be out.
        runnel.stop(Duration.ofSeconds(5));
        assertThat(events.of(id)).isEmpty();
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.RUNNING);
        assertThat(row.attempt()).isEqualTo(2);
        assertThat(row.attemptedAt()).isEqualTo(second.attemptedAt());
        assertThat(row.attemptedBy()).last().isEqualTo("client-b");
    }

    @Test
    void anOutcomeSubmittedAfterTheClientStoppedIsNotStoredNorPublished() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> worker = new AtomicReference<>();
        Runnel runnel = started(client().queue("default", 5).stopTimeout(Duration.ofMillis(100)).listener(events)
                .worker(TestArgs.class, job -> {
                    worker.set(Thread.currentThread());
                    started.countDown();
                    // Ignores cancellation: finishes only when the test says so.
                    while (true) {
                        try {
                            release.await();
                            return;
                        } catch (InterruptedException ignored) {
                            // keep waiting
                        }
                    }
                }));
        long id = runnel.insert(new TestArgs("stubborn", 1)).id();
        started.await();
        runnel.stop(Duration.ofMillis(50));
        release.countDown();
        // The job's own thread hands its outcome over, and ends once the runtime is done with it.
        Thread thread = worker.get();
        thread.join(Await.DEFAULT_TIMEOUT.toMillis());
        assertThat(thread.isAlive()).as("the job's thread still running").isFalse();
        assertThat(events.of(id)).isEmpty();
        assertThat(job(runnel, id).state()).isEqualTo(JobState.RUNNING);
    }
}
