package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobLinks;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.RunnelException;
import dev.runnel.driver.BatchCallbacks;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobLink;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.Links;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Workflows, batches and sequences under many writers at once, on Postgres' READ COMMITTED: what
 * each writer settles must add up however their transactions interleave. Every writer runs on a
 * thread and a pooled connection of its own, and all start together at a barrier; each race is
 * run several rounds. Also what Postgres alone has to get right: an insert inside an
 * application's transaction that fails, and an outcome the database turns into a cancel.
 */
class PostgresLinkRaceTest {
    private static final int ROUNDS = 5;
    private static final int WRITERS = 20;
    /** How long to wait for a notification that should come. */
    private static final long ARRIVES_MS = 5_000;
    /** How long to watch for one that should not. */
    private static final long QUIET_MS = 300;

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    private PostgresDriver driver;
    private ExecutorService threads;
    private Instant t0;

    @BeforeEach
    void setUp() {
        driver = PostgresDriver.builder().url(PostgresTestSchema.URL).schema(db.create()).maxPoolSize(WRITERS + 2)
                .build();
        new Migrator(driver).up();
        threads = Executors.newFixedThreadPool(WRITERS);
        t0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    @AfterEach
    void tearDown() {
        threads.shutdownNow();
        driver.close();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aJoinOfTwentyTasksCompletedAtOnceIsReleasedExactlyOnce() throws Exception {
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        try (AutoCloseable _ = driver.listenInserts(heard::add)) {
            awaitListening(heard);
            for (int round = 0; round < ROUNDS; round++) {
                String roots = "roots-" + round;
                String joinQueue = "join-" + round;
                List<JobInsertParams> jobs = new ArrayList<>();
                List<JobLink> links = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int i = 0; i < WRITERS; i++) {
                    names.add("d" + i);
                    jobs.add(job(roots));
                    links.add(task("d" + i));
                }
                jobs.add(job(joinQueue));
                links.add(task("join", names.toArray(String[]::new)));
                LinkInserted inserted = driver.linkInsert(new LinkInsertParams(null, "fan-in", 0, null, 0, jobs, links, t0));
                long join = inserted.jobs().getLast().id();
                assertThat(driver.jobGet(join).orElseThrow().state()).isEqualTo(JobState.PENDING);
                drain(heard);

                List<JobRow> claimed = claim(roots, WRITERS);
                assertThat(claimed).hasSize(WRITERS);
                Instant at = t0.plusSeconds(1);
                List<long[]> written = race(claimed.size(), i -> driver.jobSetStateMany(List.of(
                        JobSetStateParams.of(claimed.get(i), JobState.COMPLETED, null, at, null, 0))));
                assertThat(written).allSatisfy(w -> assertThat(w).hasSize(1));

                assertThat(driver.jobGet(join).orElseThrow().state()).as("round %d", round)
                        .isEqualTo(JobState.AVAILABLE);
                // Released by exactly one of the twenty transactions, which told the join's queue once.
                assertThat(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo(joinQueue);
                assertThat(heard.poll(QUIET_MS, TimeUnit.MILLISECONDS)).isNull();
                assertThat(waiting(join)).isZero();
            }
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aBatchCompletedAtOnceCountsEveryJobAndCallsBackOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String queue = "batch-" + round;
            String callbacks = "{\"success\":" + BatchCallbacks.encode(new JobInsertParams("on_success", "{}",
                    "callbacks", 1, JobState.AVAILABLE, t0, t0, 25, List.of(), "{}")) + ",\"complete\":"
                    + BatchCallbacks.encode(new JobInsertParams("on_complete", "{}", "callbacks", 1, JobState.AVAILABLE,
                            t0, t0, 25, List.of(), "{}")) + "}";
            List<JobInsertParams> jobs = new ArrayList<>();
            List<JobLink> links = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                jobs.add(job(queue));
                links.add(JobLink.BATCH);
            }
            LinkInserted inserted = driver.linkInsert(new LinkInsertParams(null, null, 0,
                    new LinkInsertParams.NewBatch("round " + round, callbacks), 0, jobs, links, t0));
            List<JobRow> claimed = claim(queue, WRITERS);
            assertThat(claimed).hasSize(WRITERS);
            Instant at = t0.plusSeconds(1);
            // Half complete and half are discarded, so that the success callback must not fire.
            race(claimed.size(), i -> driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed.get(i),
                    i % 2 == 0 ? JobState.COMPLETED : JobState.DISCARDED, null, at, null, 0))));

            var batch = driver.batchGet(inserted.batchId()).orElseThrow();
            assertThat(batch.total()).isEqualTo(WRITERS);
            assertThat(batch.completed()).isEqualTo(WRITERS / 2);
            assertThat(batch.discarded()).isEqualTo(WRITERS / 2);
            assertThat(batch.successJob()).isEmpty();
            assertThat(batch.completeJob()).isPresent();
            List<JobRow> callbacksInserted = claim("callbacks", 10, at);
            assertThat(callbacksInserted).extracting(JobRow::kind).containsExactly("on_complete");
            assertThat(callbacksInserted.getFirst().id()).isEqualTo(batch.completeJob().get());
            driver.jobSetStateMany(List.of(JobSetStateParams.of(callbacksInserted.getFirst(), JobState.COMPLETED, null,
                    at.plusSeconds(1), null, 0)));
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void insertsIntoOneSequenceAtOnceChainOneAfterAnother() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String key = "seq-" + round;
            String queue = "seq-" + round;
            List<LinkInserted> inserted = race(WRITERS, i -> driver.linkInsert(new LinkInsertParams(null, null, 0, null,
                    0, List.of(job(queue)), List.of(new JobLink(null, List.of(), Links.CANCEL, key, Links.HOLD, false)),
                    t0)));
            Map<Long, Long> before = new HashMap<>();
            Set<Long> ids = new HashSet<>();
            long first = 0;
            for (LinkInserted one : inserted) {
                long id = one.jobs().getFirst().id();
                ids.add(id);
                JobLinks links = driver.linkGet(id).orElseThrow();
                assertThat(links.waitsFor()).as("job %d waits for one job at most", id).hasSizeLessThanOrEqualTo(1);
                if (links.waitsFor().isEmpty()) {
                    assertThat(first).as("only one job of the sequence waits for none").isZero();
                    first = id;
                } else {
                    before.put(id, links.waitsFor().getFirst());
                }
            }
            // One chain through every job: each job but the first runs after another of them, and no
            // two after the same one.
            assertThat(first).isNotZero();
            assertThat(ids).containsAll(before.values());
            assertThat(new HashSet<>(before.values())).hasSize(WRITERS - 1);
            // Worked one by one, each completion releases the next.
            long previous = 0;
            for (int i = 0; i < WRITERS; i++) {
                List<JobRow> claimed = claim(queue, WRITERS);
                assertThat(claimed).as("round %d, step %d", round, i).hasSize(1);
                JobRow job = claimed.getFirst();
                if (i == 0) {
                    assertThat(job.id()).isEqualTo(first);
                } else {
                    assertThat(before.get(job.id())).isEqualTo(previous);
                }
                previous = job.id();
                driver.jobSetStateMany(List.of(JobSetStateParams.of(job, JobState.COMPLETED, null, t0.plusSeconds(1),
                        null, 0)));
            }
            assertThat(claim(queue, WRITERS)).isEmpty();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aTaskAddedAfterOneThatCompletesMeanwhileIsNeverLeftPending() throws Exception {
        for (int round = 0; round < ROUNDS * 4; round++) {
            String queue = "add-" + round;
            LinkInserted inserted = driver.linkInsert(new LinkInsertParams(null, "grows", 0, null, 0,
                    List.of(job(queue)), List.of(task("a")), t0));
            JobRow a = claim(queue, 1).getFirst();
            String later = "later-" + round;
            List<Object> results = race(2, i -> i == 0
                    ? (Object) driver.jobSetStateMany(List.of(JobSetStateParams.of(a, JobState.COMPLETED, null,
                            t0.plusSeconds(1), null, 0)))
                    : (Object) driver.linkInsert(new LinkInsertParams(null, null, inserted.workflowId(), null, 0,
                            List.of(job(later)), List.of(task("b", "a")), t0)));
            long b = ((LinkInserted) results.get(1)).jobs().getFirst().id();
            assertThat(driver.jobGet(b).orElseThrow().state()).as("round %d", round).isEqualTo(JobState.AVAILABLE);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aRetryWhileADependencyCompletesWaitsOnlyForWhatIsNotDone() throws Exception {
        for (int round = 0; round < ROUNDS * 4; round++) {
            // j runs after d and e; e is discarded, which cancels j, while d still runs.
            String queue = "retry-" + round;
            LinkInserted inserted = driver.linkInsert(new LinkInsertParams(null, "retried", 0, null, 0,
                    List.of(job(queue + "-d"), job(queue + "-e"), job(queue + "-j")),
                    List.of(task("d"), task("e"), task("j", "d", "e")), t0));
            long e = inserted.jobs().get(1).id();
            long j = inserted.jobs().get(2).id();
            JobRow d = claim(queue + "-d", 1).getFirst();
            JobRow eRow = claim(queue + "-e", 1).getFirst();
            driver.jobSetStateMany(List.of(JobSetStateParams.of(eRow, JobState.DISCARDED, null, t0.plusSeconds(1), null,
                    0)));
            assertThat(driver.jobGet(j).orElseThrow().state()).isEqualTo(JobState.CANCELLED);

            race(2, i -> i == 0
                    ? (Object) driver.jobSetStateMany(List.of(JobSetStateParams.of(d, JobState.COMPLETED, null,
                            t0.plusSeconds(2), null, 0)))
                    : (Object) retryOnConflict(() -> driver.jobRetryMany(new JobRetryManyParams(new long[] {e, j},
                            t0.plusSeconds(2)))));
            // Whichever came first, j now waits for e alone: once e completes, j runs.
            assertThat(driver.jobGet(j).orElseThrow().state()).as("round %d", round).isEqualTo(JobState.PENDING);
            assertThat(waiting(j)).as("round %d", round).isEqualTo(1);
            JobRow eAgain = claim(queue + "-e", 1, t0.plusSeconds(2)).getFirst();
            driver.jobSetStateMany(List.of(JobSetStateParams.of(eAgain, JobState.COMPLETED, null, t0.plusSeconds(3),
                    null, 0)));
            assertThat(driver.jobGet(j).orElseThrow().state()).as("round %d", round).isEqualTo(JobState.AVAILABLE);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void twoInsertsAddingTheSameTaskNameAtOnceAddItOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String queue = "named-" + round;
            LinkInserted wf = driver.linkInsert(new LinkInsertParams(null, "named", 0, null, 0,
                    List.of(job(queue)), List.of(task("a")), t0));
            List<Object> results = race(2, i -> {
                try {
                    return driver.linkInsert(new LinkInsertParams(null, null, wf.workflowId(), null, 0,
                            List.of(job(queue)), List.of(task("b", "a")), t0));
                } catch (IllegalArgumentException e) {
                    return e;
                }
            });
            assertThat(results).filteredOn(r -> r instanceof LinkInserted).hasSize(1);
            assertThat(results).filteredOn(r -> r instanceof IllegalArgumentException).singleElement()
                    .satisfies(e -> assertThat(((Exception) e).getMessage()).contains("workflow " + wf.workflowId()));
            assertThat(driver.workflowTasks(wf.workflowId())).extracting(t -> t.name()).containsExactly("a", "b");
        }
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aTaskNameTakenByAnInsertNotYetCommittedIsRefusedOnceItCommits() throws Exception {
        LinkInserted wf = driver.linkInsert(new LinkInsertParams(null, "taken", 0, null, 0, List.of(job("taken")),
                List.of(task("a")), t0));
        Future<Object> second;
        try (var c = driver.dataSource().getConnection()) {
            c.setAutoCommit(false);
            driver.linkInsert(new LinkInsertParams(c, null, wf.workflowId(), null, 0, List.of(job("taken")),
                    List.of(task("b", "a")), t0));
            // The second insert does not see b yet, so it goes on and waits at the unique index.
            second = threads.submit(() -> {
                try {
                    return driver.linkInsert(new LinkInsertParams(null, null, wf.workflowId(), null, 0,
                            List.of(job("taken")), List.of(task("b", "a")), t0));
                } catch (IllegalArgumentException e) {
                    return e;
                }
            });
            Thread.sleep(QUIET_MS);
            assertThat(second).isNotDone();
            c.commit();
        }
        assertThat(second.get(30, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(((Exception) e).getMessage()).contains("at the same time"));
        assertThat(driver.workflowTasks(wf.workflowId())).extracting(t -> t.name()).containsExactly("a", "b");
    }

    @Test
    void anInsertThatFailsInTheCallersTransactionWritesNothingAndLeavesItUsable() throws Exception {
        LinkInserted wf = driver.linkInsert(new LinkInsertParams(null, "outer", 0, null, 0, List.of(job("outer")),
                List.of(task("a")), t0));
        try (var c = driver.dataSource().getConnection()) {
            c.setAutoCommit(false);
            driver.linkInsert(new LinkInsertParams(c, null, wf.workflowId(), null, 0, List.of(job("outer")),
                    List.of(task("b", "a")), t0));
            // A new task that runs after one the workflow lacks: refused after the job rows were written.
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> driver.linkInsert(new LinkInsertParams(c, null,
                    wf.workflowId(), null, 0, List.of(job("outer"), job("outer")),
                    List.of(task("c"), task("d", "missing")), t0))).isInstanceOf(IllegalArgumentException.class);
            // Refused by the database: task b is taken, in this same transaction.
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> driver.linkInsert(new LinkInsertParams(c, null,
                    wf.workflowId(), null, 0, List.of(job("outer")), List.of(task("b")), t0)))
                    .isInstanceOf(IllegalArgumentException.class);
            driver.linkInsert(new LinkInsertParams(c, null, wf.workflowId(), null, 0, List.of(job("outer")),
                    List.of(task("e", "b")), t0));
            c.commit();
        }
        assertThat(driver.workflowTasks(wf.workflowId())).extracting(t -> t.name()).containsExactly("a", "b", "e");
        // On a connection in autocommit, the insert is one transaction of its own.
        try (var c = driver.dataSource().getConnection()) {
            assertThat(c.getAutoCommit()).isTrue();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> driver.linkInsert(new LinkInsertParams(c, null,
                    wf.workflowId(), null, 0, List.of(job("outer"), job("outer")),
                    List.of(task("f"), task("g", "missing")), t0))).isInstanceOf(IllegalArgumentException.class);
            assertThat(c.getAutoCommit()).isTrue();
        }
        assertThat(driver.workflowTasks(wf.workflowId())).extracting(t -> t.name()).containsExactly("a", "b", "e");
        assertThat(driver.jobList(dev.runnel.JobQuery.all().queues("outer").limit(100))).hasSize(3);
    }

    @Test
    void aRetryOfAJobWhoseCancelWasRequestedEndsItCancelledAndSettlesWhatWaits() {
        LinkInserted wf = driver.linkInsert(new LinkInsertParams(null, "stopped", 0, null, 0,
                List.of(job("stopped"), job("stopped-next")), List.of(task("a"), task("b", "a")), t0));
        JobRow a = claim("stopped", 1).getFirst();
        driver.jobCancelMany(new dev.runnel.driver.JobCancelParams(new long[] {a.id()}, t0.plusSeconds(1), "stop"));
        // The worker failed before it heard of the cancel: the database ends the job cancelled.
        driver.jobSetStateMany(List.of(JobSetStateParams.of(a, JobState.RETRYABLE, t0.plusSeconds(60), null,
                null, 0)));
        assertThat(driver.jobGet(a.id()).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(driver.jobGet(wf.jobs().get(1).id()).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void aDeadlockOrSerializationFailureIsRetryableNotRejectedData() {
        PostgresConnections connections = new PostgresConnections(null, null, new ConnectionLoss("test", null),
                "test", "at test", null);
        for (String state : List.of("40P01", "40001")) {
            SQLException e = new SQLException("ERROR: deadlock detected", state);
            RunnelException failure = connections.failure("recording job outcomes", e);
            assertThat(failure).isNotInstanceOf(DataRejectedException.class);
            assertThat(PostgresConnections.conflict(failure)).isTrue();
        }
        assertThat(PostgresConnections.conflict(connections.failure("x", new SQLException("bad", "22P02")))).isFalse();
    }

    // ---- helpers ----

    /** A job of {@code queue} marked linked, as the runtime inserts one. */
    private JobInsertParams job(String queue) {
        return new JobInsertParams("link_race", "{}", queue, 1, JobState.AVAILABLE, t0, t0, 25, List.of(),
                "{\"" + Links.METADATA_KEY + "\":true}");
    }

    private static JobLink task(String name, String... after) {
        return new JobLink(name, List.of(after), Links.CANCEL, null, Links.HOLD, false);
    }

    private List<JobRow> claim(String queue, int max) {
        return claim(queue, max, t0.plusMillis(500));
    }

    private List<JobRow> claim(String queue, int max, Instant at) {
        return driver.jobClaim(new JobClaimParams(queue, max, at, "racer"));
    }

    private int waiting(long jobId) throws SQLException {
        try (var c = PostgresTestSchema.admin(); var st = c.createStatement();
                var rs = st.executeQuery("SELECT waiting FROM " + db.current() + ".runnel_link WHERE job_id = " + jobId)) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    @FunctionalInterface
    private interface Writer<T> {
        T write(int i) throws Exception;
    }

    /** Runs {@code n} writers at once, each on its own thread, started together; their results in order. */
    private <T> List<T> race(int n, Writer<T> writer) throws Exception {
        CyclicBarrier start = new CyclicBarrier(n);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            Callable<T> call = () -> {
                start.await(30, TimeUnit.SECONDS);
                return writer.write(index);
            };
            futures.add(threads.submit(call));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            results.add(f.get(60, TimeUnit.SECONDS));
        }
        return results;
    }

    /** An administrator's retry, tried again when Postgres broke a deadlock by ending it. */
    private static <T> T retryOnConflict(Callable<T> write) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return write.call();
            } catch (RunnelException e) {
                if (attempt == 5 || !PostgresConnections.conflict(e)) {
                    throw e;
                }
            }
        }
    }

    private void awaitListening(BlockingQueue<String> heard) throws InterruptedException {
        driver.jobInsertMany(List.of(new JobInsertParams("warm_up", "{}", "warm-up", 1, JobState.AVAILABLE, t0, t0, 25,
                List.of(), "{}")));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            driver.jobInsertMany(List.of(new JobInsertParams("warm_up", "{}", "warm-up", 1, JobState.AVAILABLE, t0, t0,
                    25, List.of(), "{}")));
            if ("warm-up".equals(heard.poll(200, TimeUnit.MILLISECONDS))) {
                drain(heard);
                return;
            }
        }
        throw new AssertionError("the listener heard nothing");
    }

    private static void drain(BlockingQueue<String> heard) throws InterruptedException {
        while (heard.poll(QUIET_MS, TimeUnit.MILLISECONDS) != null) {
            // older notifications
        }
    }
}
