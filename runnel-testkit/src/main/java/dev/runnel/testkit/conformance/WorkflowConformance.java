package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.DependencyPolicy;
import dev.runnel.InsertOptions;
import dev.runnel.JobDiscard;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.Workflow;
import dev.runnel.WorkflowResult;
import dev.runnel.WorkflowState;
import dev.runnel.WorkflowTask;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.LinkListParams;
import dev.runnel.testkit.Await;
import java.sql.Connection;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Workflows: tasks wait (pending, never claimed) until the tasks they run after are done, and are
 * released by the write that stores the last of those outcomes, not by a poll; failures cancel
 * down the graph or let a cleanup run; workflows grow, are read, cancelled and retried.
 */
public abstract class WorkflowConformance extends DriverConformance {
    private final List<String> started = new CopyOnWriteArrayList<>();

    @BeforeEach
    void needsLinks() {
        org.junit.jupiter.api.Assumptions.assumeTrue(driver.supportsLinks(), driver.name() + " stores no workflows");
    }

    /** A worker client that records the order tasks start in, by their args' name. */
    private Runnel worker(int slots, dev.runnel.Worker<TestArgs> work) {
        return started(client().queue("default", slots).worker(TestArgs.class, job -> {
            started.add(job.args().name());
            work.work(job);
        }));
    }

    private Runnel worker() {
        return worker(10, job -> {});
    }

    private JobState state(Runnel runnel, long id) {
        return runnel.jobGet(id).orElseThrow().state();
    }

    private void awaitState(Runnel runnel, long id, JobState state) {
        Await.until("job " + id + " " + state.dbName(), () -> state(runnel, id) == state);
    }

    private static Workflow diamond() {
        return Workflow.builder("upload-42")
                .task("fetch", new TestArgs("fetch", 0))
                .task("resize", new TestArgs("resize", 0), "fetch")
                .task("scan", new TestArgs("scan", 0), "fetch")
                .task(WorkflowTask.of("notify", new TestArgs("notify", 0)).after("resize", "scan"))
                .build();
    }

    @Test
    void tasksWaitPendingAndAreNeverClaimedUntilTheirDependenciesAreDone() {
        Runnel inserter = inserter();
        WorkflowResult wf = inserter.workflows().insert(diamond());
        assertThat(state(inserter, wf.task("fetch"))).isEqualTo(JobState.AVAILABLE);
        for (String task : List.of("resize", "scan", "notify")) {
            assertThat(state(inserter, wf.task(task))).as(task).isEqualTo(JobState.PENDING);
        }
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams("default", 100, clock.instant(), "client-a"));
        assertThat(claimed).extracting(JobRow::id).containsExactly(wf.task("fetch"));

        driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed.getFirst(), JobState.COMPLETED, null,
                clock.instant(), null, 0)));
        assertThat(state(inserter, wf.task("resize"))).as("released by the completion's own write")
                .isEqualTo(JobState.AVAILABLE);
        assertThat(state(inserter, wf.task("scan"))).isEqualTo(JobState.AVAILABLE);
        assertThat(state(inserter, wf.task("notify"))).isEqualTo(JobState.PENDING);

        assertThat(inserter.workflows().get(wf.id()).orElseThrow().state()).isEqualTo(WorkflowState.RUNNING);
        List<WorkflowTaskRow> tasks = inserter.workflows().tasks(wf.id());
        assertThat(tasks).extracting(WorkflowTaskRow::name).containsExactly("fetch", "resize", "scan", "notify");
        assertThat(tasks.get(3).after()).containsExactlyInAnyOrder("resize", "scan");
        assertThat(tasks.get(0).state()).contains(JobState.COMPLETED);
    }

    @Test
    void aDiamondRunsEachTaskAfterTheTasksItNamesAndCompletes() {
        Runnel runnel = worker();
        WorkflowResult wf = runnel.workflows().insert(diamond());
        awaitState(runnel, wf.task("notify"), JobState.COMPLETED);
        assertThat(started.getFirst()).isEqualTo("fetch");
        assertThat(started.getLast()).isEqualTo("notify");
        assertThat(started).hasSize(4);
        assertThat(runnel.workflows().get(wf.id()).orElseThrow().state()).isEqualTo(WorkflowState.COMPLETED);
        assertThat(runnel.workflows().list(10)).extracting(r -> r.id()).containsExactly(wf.id());
        assertThat(runnel.jobs().links(wf.task("notify")).orElseThrow().waitsFor())
                .containsExactlyInAnyOrder(wf.task("resize"), wf.task("scan"));
        assertThat(runnel.jobs().links(wf.task("fetch")).orElseThrow().waitedOnBy())
                .containsExactlyInAnyOrder(wf.task("resize"), wf.task("scan"));
    }

    @Test
    void aChainOfTenFinishesWithNoMaintenanceAndNoPolling() {
        // Another client holds the lease for the whole test, so this one never runs the scheduler
        // or any other maintenance; and it polls only every minute, so every start comes of a wake.
        assertThat(driver.leaderAttemptElect(new LeaderElectParams("absent-leader", clock.instant(),
                clock.instant().plus(Duration.ofHours(1))))).isTrue();
        Runnel runnel = started(client().queue("default", 5).fetchPollInterval(Duration.ofMinutes(1))
                .worker(TestArgs.class, job -> started.add(job.args().name())));
        Workflow.Builder chain = Workflow.builder("chain");
        for (int i = 0; i < 10; i++) {
            if (i == 0) {
                chain.task("t0", new TestArgs("t0", 0));
            } else {
                chain.task("t" + i, new TestArgs("t" + i, i), "t" + (i - 1));
            }
        }
        WorkflowResult wf = runnel.workflows().insert(chain.build());
        Await.until("the chain's last task completed", Duration.ofSeconds(20),
                () -> state(runnel, wf.task("t9")) == JobState.COMPLETED);
        assertThat(started).containsExactly("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9");
        assertThat(runnel.isLeader()).as("no maintenance ran here").isFalse();
    }

    @Test
    void aFailedTaskCancelsTheTasksAfterItButACleanupRunsAnyway() {
        Runnel runnel = worker(10, job -> {
            if (job.args().name().equals("fetch")) {
                throw new JobDiscard("the upload is gone");
            }
        });
        WorkflowResult wf = runnel.workflows().insert(Workflow.builder("fails")
                .task("fetch", new TestArgs("fetch", 0))
                .task("resize", new TestArgs("resize", 0), "fetch")
                .task("notify", new TestArgs("notify", 0), "resize")
                .task(WorkflowTask.of("cleanup", new TestArgs("cleanup", 0)).after("notify", "fetch")
                        .onDependencyFailure(DependencyPolicy.RUN))
                .build());
        awaitState(runnel, wf.task("cleanup"), JobState.COMPLETED);
        assertThat(state(runnel, wf.task("fetch"))).isEqualTo(JobState.DISCARDED);
        JobRow resize = runnel.jobGet(wf.task("resize")).orElseThrow();
        assertThat(resize.state()).isEqualTo(JobState.CANCELLED);
        assertThat(resize.lastError().orElseThrow().message()).contains("job " + wf.task("fetch")).contains("discarded");
        assertThat(state(runnel, wf.task("notify"))).as("cancelled down the graph").isEqualTo(JobState.CANCELLED);
        assertThat(started).containsExactly("fetch", "cleanup");
        assertThat(runnel.workflows().get(wf.id()).orElseThrow().state()).isEqualTo(WorkflowState.FAILED);
    }

    @Test
    void aTaskReadsTheOutputsOfTheTasksItRunsAfter() {
        Map<String, Optional<String>> seen = new ConcurrentHashMap<>();
        AtomicInteger reads = new AtomicInteger();
        Runnel[] self = new Runnel[1];
        self[0] = worker(10, job -> {
            switch (job.args().name()) {
                case "fetch" -> job.recordOutput(Map.of("bytes", 1234));
                case "scan" -> { }
                case "report" -> {
                    seen.putAll(self[0].workflows().dependencyOutputs(job.id()));
                    reads.incrementAndGet();
                }
                default -> throw new IllegalStateException(job.args().name());
            }
        });
        WorkflowResult wf = self[0].workflows().insert(Workflow.builder("outputs")
                .task("fetch", new TestArgs("fetch", 0))
                .task("scan", new TestArgs("scan", 0))
                .task("report", new TestArgs("report", 0), "fetch", "scan")
                .build());
        awaitState(self[0], wf.task("report"), JobState.COMPLETED);
        assertThat(reads.get()).isEqualTo(1);
        assertThat(seen).containsOnlyKeys("fetch", "scan");
        assertThat(seen.get("fetch")).contains("{\"bytes\":1234}");
        assertThat(seen.get("scan")).isEmpty();
    }

    @Test
    void aRunningTaskAddsTasksToItsWorkflow() {
        Runnel[] self = new Runnel[1];
        self[0] = worker(10, job -> {
            if (job.args().name().equals("fetch")) {
                long workflow = self[0].jobs().links(job.id()).orElseThrow().workflowId().orElseThrow();
                List<WorkflowTask> more = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    more.add(WorkflowTask.of("process-" + i, new TestArgs("process", i)).after("fetch"));
                }
                more.add(WorkflowTask.of("report", new TestArgs("report", 0)).after("process-0", "process-1", "process-2"));
                self[0].workflows().add(workflow, more);
            }
        });
        WorkflowResult wf = self[0].workflows().insert(Workflow.builder("fan-out").task("fetch", new TestArgs("fetch", 0)).build());
        Await.until("the added report ran", () -> started.contains("report"));
        awaitState(self[0], wf.task("fetch"), JobState.COMPLETED);
        List<WorkflowTaskRow> tasks = self[0].workflows().tasks(wf.id());
        assertThat(tasks).hasSize(5);
        Await.until("every task completed", () -> self[0].workflows().get(wf.id()).orElseThrow().state() == WorkflowState.COMPLETED);
        assertThat(started.getFirst()).isEqualTo("fetch");
        assertThat(started.getLast()).isEqualTo("report");
    }

    @Test
    void tasksAddedAfterACompletedOrFailedTaskSeeItsOutcomeAtOnce() {
        Runnel inserter = inserter();
        WorkflowResult wf = inserter.workflows().insert(Workflow.builder("grow")
                .task("done", new TestArgs("done", 0)).task("gone", new TestArgs("gone", 0)).build());
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams("default", 10, clock.instant(), "client-a"));
        List<JobSetStateParams> outcomes = new ArrayList<>();
        for (JobRow job : claimed) {
            boolean done = job.id() == wf.task("done");
            outcomes.add(JobSetStateParams.of(job, done ? JobState.COMPLETED : JobState.DISCARDED, null, clock.instant(),
                    null, 0));
        }
        driver.jobSetStateMany(outcomes);
        WorkflowResult added = inserter.workflows().add(wf.id(),
                WorkflowTask.of("after-done", new TestArgs("a", 0)).after("done"),
                WorkflowTask.of("after-gone", new TestArgs("b", 0)).after("gone"),
                WorkflowTask.of("cleanup", new TestArgs("c", 0)).after("gone").onDependencyFailure(DependencyPolicy.RUN));
        assertThat(added.id()).isEqualTo(wf.id());
        assertThat(state(inserter, added.task("after-done"))).isEqualTo(JobState.AVAILABLE);
        assertThat(state(inserter, added.task("after-gone"))).isEqualTo(JobState.CANCELLED);
        assertThat(state(inserter, added.task("cleanup"))).isEqualTo(JobState.AVAILABLE);
    }

    @Test
    void aWorkflowIsCancelledWholeAndRetriedFromItsFailedTasks() {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        Runnel runnel = worker(10, job -> {
            if (job.args().name().equals("b") && failOnce.getAndSet(false)) {
                throw new JobDiscard("first time");
            }
        });
        WorkflowResult wf = runnel.workflows().insert(Workflow.builder("retry")
                .task("a", new TestArgs("a", 0)).task("b", new TestArgs("b", 0), "a").task("c", new TestArgs("c", 0), "b")
                .build());
        awaitState(runnel, wf.task("c"), JobState.CANCELLED);
        assertThat(runnel.workflows().get(wf.id()).orElseThrow().state()).isEqualTo(WorkflowState.FAILED);
        assertThat(runnel.workflows().retry(wf.id())).isEqualTo(2);
        awaitState(runnel, wf.task("c"), JobState.COMPLETED);
        assertThat(state(runnel, wf.task("b"))).isEqualTo(JobState.COMPLETED);
        assertThat(started).containsExactly("a", "b", "b", "c");
        assertThat(runnel.workflows().get(wf.id()).orElseThrow().state()).isEqualTo(WorkflowState.COMPLETED);
        runnel.stop(Duration.ofSeconds(5)); // so that no worker takes the next workflow's tasks

        Runnel inserter = inserter();
        WorkflowResult other = inserter.workflows().insert(diamond());
        WorkflowResult idle = new WorkflowResult(other.id(), other.tasks());
        assertThat(inserter.workflows().cancel(idle.id())).isEqualTo(4);
        for (long id : idle.tasks().values()) {
            assertThat(state(inserter, id)).isEqualTo(JobState.CANCELLED);
        }
        assertThat(inserter.workflows().get(idle.id()).orElseThrow().state()).isEqualTo(WorkflowState.CANCELLED);
        assertThatThrownBy(() -> inserter.workflows().cancel(987_654_321L)).isInstanceOf(NotFoundException.class)
                .hasMessageContaining("no workflow 987654321");
        assertThatThrownBy(() -> inserter.workflows().retry(987_654_321L)).isInstanceOf(NotFoundException.class);
    }

    @Test
    void aDeletedDependencyCancelsOrReleasesAsTheTaskSays() {
        Runnel inserter = inserter();
        WorkflowResult wf = inserter.workflows().insert(Workflow.builder("deleted")
                .task("a", new TestArgs("a", 0))
                .task("b", new TestArgs("b", 0), "a")
                .task(WorkflowTask.of("c", new TestArgs("c", 0)).after("a").onDependencyFailure(DependencyPolicy.RUN))
                .build());
        inserter.jobs().delete(wf.task("a"));
        assertThat(state(inserter, wf.task("b"))).isEqualTo(JobState.CANCELLED);
        assertThat(state(inserter, wf.task("c"))).isEqualTo(JobState.AVAILABLE);
        assertThat(inserter.workflows().get(wf.id()).orElseThrow().deletedTasks()).isEqualTo(1);
    }

    @Test
    void theCleanerTakesAWorkflowWithItsLastTasks() {
        Runnel runnel = started(client().queue("default", 5).retention(JobState.COMPLETED, Duration.ofMinutes(1))
                .worker(TestArgs.class, job -> {}));
        WorkflowResult wf = runnel.workflows().insert(diamond());
        Await.until("the workflow completed",
                () -> runnel.workflows().get(wf.id()).orElseThrow().state() == WorkflowState.COMPLETED);
        clock.advance(Duration.ofMinutes(2));
        Await.until("the cleaner took the workflow", () -> runnel.workflows().get(wf.id()).isEmpty());
        assertThat(runnel.workflows().tasks(wf.id())).isEmpty();
        assertThat(runnel.jobs().links(wf.task("notify"))).isEmpty();
    }

    @Test
    void twentyCompletionsAtOnceReleaseTheirJoinOnce() throws Exception {
        Workflow.Builder b = Workflow.builder("join");
        List<String> deps = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            b.task("d" + i, new TestArgs("d", i));
            deps.add("d" + i);
        }
        b.task("join", new TestArgs("join", 0), deps.toArray(String[]::new));
        WorkflowResult wf = inserter().workflows().insert(b.build());
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams("default", 100, clock.instant(), "client-a"));
        assertThat(claimed).hasSize(20);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (JobRow job : claimed) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                    driver.jobSetStateMany(List.of(JobSetStateParams.of(job, JobState.COMPLETED, null, clock.instant(),
                            null, 0)));
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failures).isEmpty();
        assertThat(inserter().jobGet(wf.task("join")).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
        List<JobRow> joins = driver.jobClaim(new JobClaimParams("default", 100, clock.instant(), "client-b"));
        assertThat(joins).extracting(JobRow::id).containsExactly(wf.task("join"));
    }

    @Test
    void aWorkflowInsertedInATransactionExistsOnlyIfItCommits() throws Exception {
        assumeTransactionalInsert();
        Runnel inserter = inserter();
        try (Connection tx = newConnection(dir)) {
            tx.setAutoCommit(false);
            WorkflowResult rolledBack = inserter.workflows().insert(tx, diamond());
            tx.rollback();
            assertThat(inserter.workflows().get(rolledBack.id())).isEmpty();
            assertThat(inserter.jobGet(rolledBack.task("fetch"))).isEmpty();
            WorkflowResult kept = inserter.workflows().insert(tx, diamond());
            tx.commit();
            assertThat(inserter.workflows().tasks(kept.id())).hasSize(4);
            assertThat(state(inserter, kept.task("scan"))).isEqualTo(JobState.PENDING);
        }
    }

    @Test
    void aBadGraphIsRefusedBeforeAnythingIsWritten() {
        Runnel inserter = inserter();
        assertThatThrownBy(() -> Workflow.builder("w").task("a", new TestArgs("a", 0), "b")
                .task("b", new TestArgs("b", 0), "a").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle through task");
        assertThatThrownBy(() -> Workflow.builder("w").task("a", new TestArgs("a", 0), "nope").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("task a runs after nope");
        assertThatThrownBy(() -> Workflow.builder("w").task("a", new TestArgs("a", 0)).task("a", new TestArgs("a", 1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two tasks are named a");
        assertThatThrownBy(() -> Workflow.builder("w").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one task");
        WorkflowResult wf = inserter.workflows().insert(Workflow.builder("w").task("a", new TestArgs("a", 0)).build());
        assertThatThrownBy(() -> inserter.workflows().add(wf.id(), WorkflowTask.of("b", new TestArgs("b", 0)).after("nope")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> inserter.workflows().add(wf.id(), WorkflowTask.of("a", new TestArgs("a", 0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a task named a");
        assertThatThrownBy(() -> inserter.workflows().add(987_654_321L, WorkflowTask.of("b", new TestArgs("b", 0))))
                .isInstanceOf(NotFoundException.class);
        assertThat(inserter.workflows().tasks(wf.id())).hasSize(1);
        assertThat(driver.workflowList(new LinkListParams(10, 0))).hasSize(1);

        Runnel atMostOnce = Runnel.builder().driver(driver).clock(clock)
                .queue("fast", 1, Runnel.Delivery.AT_MOST_ONCE).worker(TestArgs.class, job -> {}).build();
        assertThatThrownBy(() -> atMostOnce.workflows().insert(Workflow.builder("w2")
                .task(WorkflowTask.of("a", new TestArgs("a", 0)).options(InsertOptions.builder().queue("fast").build()))
                .build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most once");
        assertThat(driver.workflowList(new LinkListParams(10, 0))).hasSize(1);
    }
}
