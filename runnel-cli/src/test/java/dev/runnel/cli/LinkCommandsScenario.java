package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.Batch;
import dev.runnel.BatchResult;
import dev.runnel.DependencyPolicy;
import dev.runnel.Drivers;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Workflow;
import dev.runnel.WorkflowResult;
import dev.runnel.WorkflowState;
import dev.runnel.WorkflowTask;
import dev.runnel.cli.Cli.Result;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.Await;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code runnel workflows} and {@code runnel batches} on a real database that a client works;
 * each subclass supplies the database's URL.
 */
abstract class LinkCommandsScenario {
    static final ObjectMapper JSON = new ObjectMapper();

    /** A workflow task or batch job: it fails for good (one attempt) while its name is in {@code broken}. */
    record Step(String name) implements JobArgs {
        @Override
        public String kind() {
            return "step";
        }
    }

    /** A batch's callback. */
    record BatchDone(String which) implements JobArgs {
        @Override
        public String kind() {
            return "batch_done";
        }
    }

    /** The database's URL, migrated by the scenario. */
    protected abstract String url();

    private final AtomicBoolean scanBroken = new AtomicBoolean(true);
    private Runnel worker;

    Result run(String... args) {
        return Cli.runOn(url(), args);
    }

    JsonNode json(String... args) throws Exception {
        Result r = run(args);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().count()).as("one JSON document on one line").isEqualTo(1);
        return JSON.readTree(r.out());
    }

    /** Drops what {@link #url()} made, once the test's client is closed. */
    protected void cleanUp() throws Exception {}

    @BeforeEach
    void migrate() {
        Result migrated = run("migrate", "up");
        assertThat(migrated.code()).as(migrated.err()).isZero();
    }

    @AfterEach
    void stopWorker() throws Exception {
        try {
            if (worker != null) {
                worker.close();
            }
        } finally {
            cleanUp();
        }
    }

    /**
     * A client working the database's default queue. Only on a driver that stores workflows and
     * batches: the tests that insert them are skipped on any other, by that capability.
     */
    private Runnel worker() {
        try (Driver driver = Drivers.open(url())) {
            Assumptions.assumeTrue(driver.supportsLinks(), driver.name() + " stores no workflows or batches");
        }
        worker = Runnel.builder().driver(Drivers.open(url())).queue("default", 4)
                .fetchPollInterval(java.time.Duration.ofMillis(50))
                .worker(Step.class, job -> {
                    if (job.args().name().equals("scan") && scanBroken.get()) {
                        throw new IllegalStateException("the scanner is down");
                    }
                })
                .worker(BatchDone.class, job -> {}).build();
        worker.start();
        return worker;
    }

    private static InsertOptions once() {
        return InsertOptions.builder().maxAttempts(1).build();
    }

    /**
     * fetch, then resize and scan, then notify after both (cancelled when one fails) and report
     * after scan (runs all the same). The scan is discarded, so the workflow fails.
     */
    private WorkflowResult failedUpload(Runnel runnel) {
        WorkflowResult wf = runnel.workflows().insert(Workflow.builder("upload-42")
                .task("fetch", new Step("fetch"))
                .task("resize", new Step("resize"), "fetch")
                .task(WorkflowTask.of("scan", new Step("scan")).after("fetch").options(once()))
                .task("notify", new Step("notify"), "resize", "scan")
                .task(WorkflowTask.of("report", new Step("report")).after("scan").onDependencyFailure(DependencyPolicy.RUN))
                .build());
        Await.until("the upload workflow to fail",
                () -> runnel.workflows().get(wf.id()).orElseThrow().state() == WorkflowState.FAILED);
        return wf;
    }

    /** A workflow that waits an hour for its first task, so that it is running while the test looks. */
    private WorkflowResult waiting(Runnel runnel) {
        return runnel.workflows().insert(Workflow.builder("nightly")
                .task(WorkflowTask.of("export", new Step("export"))
                        .options(InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(3_600)).build()))
                .task("mail", new Step("mail"), "export")
                .build());
    }

    @Test
    void workflowsListShowsEachWithItsStateAndTasksByStateAndPagesBackwards() throws Exception {
        Runnel runnel = worker();
        WorkflowResult upload = failedUpload(runnel);
        WorkflowResult nightly = waiting(runnel);

        JsonNode all = json("workflows", "list", "--json");
        assertThat(all).extracting(w -> w.get("id").asLong()).containsExactly(nightly.id(), upload.id());
        JsonNode n = all.get(0);
        assertThat(n.get("name").asText()).isEqualTo("nightly");
        assertThat(n.get("state").asText()).isEqualTo("running");
        assertThat(n.get("task_count").asInt()).isEqualTo(2);
        assertThat(n.get("counts").get("scheduled").asInt()).isEqualTo(1);
        assertThat(n.get("counts").get("pending").asInt()).isEqualTo(1);
        assertThat(n.get("counts").get("completed").asInt()).isZero();
        assertThat(n.get("counts").get("deleted").asInt()).isZero();
        assertThat(Instant.parse(n.get("created_at").asText())).isBefore(Instant.now().plusSeconds(1));
        JsonNode u = all.get(1);
        assertThat(u.get("state").asText()).isEqualTo("failed");
        assertThat(u.get("counts").get("completed").asInt()).as("fetch, resize, report").isEqualTo(3);
        assertThat(u.get("counts").get("discarded").asInt()).isEqualTo(1);
        assertThat(u.get("counts").get("cancelled").asInt()).isEqualTo(1);

        JsonNode first = json("workflows", "list", "--limit", "1", "--json");
        assertThat(first).extracting(w -> w.get("id").asLong()).containsExactly(nightly.id());
        JsonNode next = json("workflows", "list", "--limit", "1", "--before", String.valueOf(nightly.id()), "--json");
        assertThat(next).extracting(w -> w.get("id").asLong()).containsExactly(upload.id());
        assertThat(json("workflows", "list", "--before", String.valueOf(upload.id()), "--json")).isEmpty();

        Result table = run("workflows", "list");
        assertThat(table.code()).isZero();
        List<String> lines = table.out().lines().toList();
        assertThat(lines.getFirst()).startsWith("ID").contains("NAME").contains("STATE").contains("BY STATE")
                .contains("CREATED");
        assertThat(lines.get(1)).startsWith(String.valueOf(nightly.id())).contains("nightly").contains("running")
                .contains("1 pending, 1 scheduled");
        assertThat(lines.get(2)).contains("upload-42").contains("failed")
                .contains("3 completed, 1 cancelled, 1 discarded");
        assertThat(lines.getLast()).isEqualTo("(2 workflows)");
        assertThat(run("workflows", "list", "--limit", "1").out())
                .contains("(1 workflows; the page after: --before " + nightly.id() + ")");
        assertThat(run("workflows", "list", "--before", String.valueOf(upload.id())).out())
                .contains("(no workflows on this page)");
    }

    @Test
    void workflowsGetShowsEveryTaskWithItsJobStateDependenciesAndPolicy() throws Exception {
        Runnel runnel = worker();
        WorkflowResult upload = failedUpload(runnel);

        JsonNode w = json("workflows", "get", String.valueOf(upload.id()), "--json");
        assertThat(w.get("id").asLong()).isEqualTo(upload.id());
        assertThat(w.get("name").asText()).isEqualTo("upload-42");
        assertThat(w.get("state").asText()).isEqualTo("failed");
        assertThat(w.get("task_count").asInt()).isEqualTo(5);
        JsonNode tasks = w.get("tasks");
        assertThat(tasks).extracting(t -> t.get("name").asText())
                .containsExactly("fetch", "resize", "scan", "notify", "report");
        assertThat(tasks).extracting(t -> t.get("state").asText())
                .containsExactly("completed", "completed", "discarded", "cancelled", "completed");
        JsonNode notify = tasks.get(3);
        assertThat(notify.get("job_id").asLong()).isEqualTo(upload.task("notify"));
        assertThat(notify.get("kind").asText()).isEqualTo("step");
        assertThat(notify.get("after")).extracting(JsonNode::asText).containsExactlyInAnyOrder("resize", "scan");
        assertThat(notify.get("on_dependency_failure").asText()).isEqualTo("cancel");
        assertThat(tasks.get(4).get("on_dependency_failure").asText()).isEqualTo("run");
        assertThat(tasks.get(0).get("after")).isEmpty();

        Result text = run("workflows", "get", String.valueOf(upload.id()));
        assertThat(text.code()).isZero();
        List<String> lines = text.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("workflow " + upload.id() + "  upload-42  failed");
        assertThat(lines.get(1)).contains("5 tasks: 3 completed, 1 cancelled, 1 discarded");
        assertThat(lines.get(2)).startsWith("TASK").contains("JOB").contains("KIND").contains("STATE").contains("AFTER")
                .contains("ON FAILURE");
        assertThat(lines.get(6)).startsWith("notify").contains(String.valueOf(upload.task("notify")))
                .contains("cancelled").contains("resize, scan").endsWith("cancel");
        assertThat(lines.get(7)).startsWith("report").contains("scan").endsWith("run");

        // A task whose job was deleted is still a task of the workflow.
        runnel.jobs().delete(upload.task("fetch"));
        JsonNode after = json("workflows", "get", String.valueOf(upload.id()), "--json");
        assertThat(after.get("tasks").get(0).get("state").isNull()).isTrue();
        assertThat(after.get("counts").get("deleted").asInt()).isEqualTo(1);
        assertThat(run("workflows", "get", String.valueOf(upload.id())).out().lines().skip(3).findFirst().orElseThrow())
                .startsWith("fetch").contains("deleted");
    }

    @Test
    void anEmptyDatabaseListsNoneAndTheJsonIsAnEmptyArray() throws Exception {
        for (String command : List.of("workflows", "batches")) {
            assertThat(json(command, "list", "--json")).as(command).isEmpty();
            assertThat(run(command, "list").out()).as(command).contains("(no " + command);
        }
    }

    @Test
    void badFlagsAreOneLineAndExitTwo() {
        java.util.Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("workflows list --limit 0", "--limit must be between 1 and 1000, was 0");
        refused.put("workflows list --limit 1001", "--limit must be between 1 and 1000, was 1001");
        refused.put("workflows list --limit many", "--limit");
        refused.put("workflows list --before 0", "--before must be at least 1, was 0");
        refused.put("workflows list --jsno", "--jsno");
        refused.put("workflows get", "ID");
        refused.put("workflows get abc", "abc");
        refused.put("workflows get 1 2", "2");
        refused.put("workflows cancel", "ID");
        refused.put("workflows retry x", "x");
        refused.put("batches list --limit 0", "--limit must be between 1 and 1000, was 0");
        refused.put("batches list --before -3", "--before must be at least 1, was -3");
        refused.put("batches get", "ID");
        refused.put("batches get one", "one");
        refused.forEach((command, mention) -> Cli.exitsTwoWithOneLine(run(command.split(" ")), mention));
        Result bare = Cli.run("workflows");
        assertThat(bare.code()).isEqualTo(2);
        assertThat(bare.err()).contains("list").contains("get").contains("cancel").contains("retry");
    }

    @Test
    void aWorkflowOrBatchThatDoesNotExistIsOneLineAndExitOne() {
        for (String[] command : List.of(new String[] {"workflows", "get", "987654321"},
                new String[] {"workflows", "get", "987654321", "--json"},
                new String[] {"workflows", "cancel", "987654321"}, new String[] {"workflows", "retry", "987654321"},
                new String[] {"batches", "get", "987654321"}, new String[] {"batches", "get", "987654321", "--json"})) {
            Result r = run(command);
            String what = String.join(" ", command);
            assertThat(r.code()).as(what).isEqualTo(1);
            assertThat(r.out()).as(what).isEmpty();
            assertThat(r.err().lines().count()).as(what + ": " + r.err()).isEqualTo(1);
            assertThat(r.err()).as(what).startsWith("runnel: no " + command[0].replaceAll("e?s$", "") + " 987654321")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void cancelAndRetrySayWhatTheyDid() throws Exception {
        Runnel runnel = worker();
        WorkflowResult nightly = waiting(runnel);
        Result cancelled = run("workflows", "cancel", String.valueOf(nightly.id()));
        assertThat(cancelled.code()).as(cancelled.err()).isZero();
        assertThat(cancelled.out()).isEqualTo("workflow " + nightly.id() + ": cancelled 2 tasks that had not finished\n");
        assertThat(runnel.jobs().get(nightly.task("export")).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(runnel.jobs().get(nightly.task("mail")).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(json("workflows", "get", String.valueOf(nightly.id()), "--json").get("state").asText())
                .isEqualTo("cancelled");
        assertThat(run("workflows", "cancel", String.valueOf(nightly.id())).out())
                .isEqualTo("workflow " + nightly.id() + ": nothing to cancel: every task is final already\n");

        // Retried once the scanner works again, the failed upload runs its scan and notify, and completes.
        WorkflowResult upload = failedUpload(runnel);
        scanBroken.set(false);
        Result retried = run("workflows", "retry", String.valueOf(upload.id()));
        assertThat(retried.code()).as(retried.err()).isZero();
        assertThat(retried.out())
                .isEqualTo("workflow " + upload.id() + ": retried 2 tasks that were cancelled or discarded\n");
        Await.until("the retried workflow to complete",
                () -> runnel.workflows().get(upload.id()).orElseThrow().state() == WorkflowState.COMPLETED);
        assertThat(run("workflows", "retry", String.valueOf(upload.id())).out())
                .isEqualTo("workflow " + upload.id() + ": nothing to retry: no task is cancelled or discarded\n");
    }

    @Test
    void batchesListAndGetShowTheCountsAndCallbackJobs() throws Exception {
        Runnel runnel = worker();
        BatchResult done = runnel.batches().insert(Batch.builder().name("import").onSuccess(new BatchDone("success"))
                .onComplete(new BatchDone("complete")).onDiscard(new BatchDone("discard")).build(),
                List.of(InsertRequest.of(new Step("a")), InsertRequest.of(new Step("b")),
                        new InsertRequest(new Step("scan"), once())));
        Await.until("the import batch to complete", () -> runnel.batches().get(done.id()).orElseThrow().isComplete()
                && runnel.batches().get(done.id()).orElseThrow().completeJob().isPresent());
        InsertOptions later = InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(3_600)).build();
        BatchResult open = runnel.batches().insert(Batch.builder().build(),
                List.of(new InsertRequest(new Step("x"), later), new InsertRequest(new Step("y"), later)));
        runnel.jobs().delete(open.jobs().get(1).id());

        JsonNode all = json("batches", "list", "--json");
        assertThat(all).extracting(b -> b.get("id").asLong()).containsExactly(open.id(), done.id());
        JsonNode o = all.get(0);
        assertThat(o.get("name").isNull()).isTrue();
        assertThat(o.get("total").asLong()).isEqualTo(2);
        assertThat(o.get("deleted").asLong()).isEqualTo(1);
        assertThat(o.get("unfinished").asLong()).isEqualTo(1);
        assertThat(o.get("complete").asBoolean()).isFalse();
        assertThat(o.get("callback_jobs").get("complete").isNull()).isTrue();

        JsonNode d = json("batches", "get", String.valueOf(done.id()), "--json");
        assertThat(d.get("name").asText()).isEqualTo("import");
        assertThat(d.get("total").asLong()).isEqualTo(3);
        assertThat(d.get("completed").asLong()).isEqualTo(2);
        assertThat(d.get("discarded").asLong()).isEqualTo(1);
        assertThat(d.get("cancelled").asLong()).isZero();
        assertThat(d.get("unfinished").asLong()).isZero();
        assertThat(d.get("complete").asBoolean()).isTrue();
        long completeJob = runnel.batches().get(done.id()).orElseThrow().completeJob().orElseThrow();
        long discardJob = runnel.batches().get(done.id()).orElseThrow().discardJob().orElseThrow();
        assertThat(d.get("callback_jobs").get("complete").asLong()).isEqualTo(completeJob);
        assertThat(d.get("callback_jobs").get("discard").asLong()).isEqualTo(discardJob);
        assertThat(d.get("callback_jobs").get("success").isNull()).isTrue();
        assertThat(runnel.jobs().get(completeJob).orElseThrow().kind()).isEqualTo("batch_done");

        Result text = run("batches", "get", String.valueOf(done.id()));
        assertThat(text.out()).startsWith("batch " + done.id() + "  import  complete\n")
                .contains("3 jobs: 2 completed, 0 cancelled, 1 discarded, 0 deleted, 0 unfinished")
                .contains("callbacks complete " + completeJob + ", discard " + discardJob);
        Result table = run("batches", "list");
        List<String> lines = table.out().lines().toList();
        assertThat(lines.getFirst()).startsWith("ID").contains("TOTAL").contains("COMPLETED").contains("CANCELLED")
                .contains("DISCARDED").contains("DELETED").contains("UNFINISHED").contains("CALLBACKS");
        assertThat(lines.get(1)).startsWith(String.valueOf(open.id())).contains(" - ");
        assertThat(lines.get(2)).contains("import").contains("complete " + completeJob);
        assertThat(lines.getLast()).isEqualTo("(2 batches)");
        assertThat(json("batches", "list", "--limit", "1", "--before", String.valueOf(open.id()), "--json"))
                .extracting(b -> b.get("id").asLong()).containsExactly(done.id());
    }
}
