package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.Batch;
import dev.runnel.BatchResult;
import dev.runnel.DependencyPolicy;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Workflow;
import dev.runnel.WorkflowResult;
import dev.runnel.WorkflowState;
import dev.runnel.WorkflowTask;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.Await;
import dev.runnel.web.WebFixture.Fail;
import dev.runnel.web.WebFixture.Greet;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workflows and batches pages, their API, and the ties on a job's page, on a real database
 * through real HTTP. Each driver's subclass supplies the database; the tests run where the driver
 * stores workflows and batches.
 */
abstract class DashboardLinksScenario {
    private static final String SCRIPT = "<script>alert('x')</script>";

    @TempDir
    Path dir;

    WebFixture web;

    protected abstract Driver newDriver(Path dir);

    /** A dashboard on a driver that stores workflows and batches (the test is skipped on any other). */
    WebFixture start(UnaryOperator<RunnelWeb.Builder> settings) {
        Driver driver = newDriver(dir);
        if (!driver.supportsLinks()) {
            driver.close();
            Assumptions.abort(driver.name() + " stores no workflows or batches");
        }
        web = new WebFixture(driver, settings);
        return web;
    }

    WebFixture start() {
        return start(b -> b);
    }

    @AfterEach
    void stop() {
        if (web != null) {
            web.close();
        }
    }

    /**
     * fetch, then resize and scan, then notify after both (cancelled when one fails) and report
     * after scan (runs all the same); the scan is discarded, so the workflow fails.
     */
    WorkflowResult failedUpload(String name) {
        Runnel runnel = web.runnel;
        WorkflowResult wf = runnel.workflows().insert(Workflow.builder(name)
                .task("fetch", new Greet("fetch"))
                .task("resize", new Greet("resize"), "fetch")
                .task("scan", new Fail("the scanner is down"), "fetch")
                .task("notify", new Greet("notify"), "resize", "scan")
                .task(WorkflowTask.of("report", new Greet("report")).after("scan").onDependencyFailure(DependencyPolicy.RUN))
                .build());
        Await.until("the workflow to fail",
                () -> runnel.workflows().get(wf.id()).orElseThrow().state() == WorkflowState.FAILED);
        return wf;
    }

    /** A workflow whose first task waits an hour: running while the test looks. */
    WorkflowResult waiting(String name) {
        return web.runnel.workflows().insert(Workflow.builder(name)
                .task(WorkflowTask.of("export", new Greet("export"))
                        .options(InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(3_600)).build()))
                .task("mail", new Greet("mail"), "export")
                .build());
    }

    static int count(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void theWorkflowsPageAndApiListEachWorkflowWithItsStateAndTaskCounts() throws Exception {
        start();
        WorkflowResult upload = failedUpload("upload-42");
        WorkflowResult nightly = waiting("nightly");

        String html = web.get("/workflows").body();
        assertThat(html).contains("<a href=\"/workflows\" class=\"on\">Workflows</a>")
                .contains("href=\"/workflows/" + upload.id() + "\"").contains("href=\"/workflows/" + nightly.id() + "\"");
        String uploadRow = html.substring(html.indexOf("<tr data-id=\"" + upload.id() + "\""));
        uploadRow = uploadRow.substring(0, uploadRow.indexOf("</tr>"));
        assertThat(uploadRow).contains("upload-42").contains("class=\"st st-discarded\">failed<")
                .contains("<span class=\"st st-completed\" data-state=\"completed\">3 completed</span>")
                .contains("<span class=\"st st-discarded\" data-state=\"discarded\">1 discarded</span>")
                .contains("<span class=\"st st-cancelled\" data-state=\"cancelled\">1 cancelled</span>")
                .doesNotContain("data-state=\"pending\"");
        assertThat(html.indexOf("data-id=\"" + nightly.id() + "\"")).as("newest first")
                .isLessThan(html.indexOf("data-id=\"" + upload.id() + "\""));

        JsonNode listed = web.getJson("/api/workflows");
        assertThat(listed).extracting(w -> w.get("id").asLong()).containsExactly(nightly.id(), upload.id());
        JsonNode n = listed.get(0);
        assertThat(n.get("name").asText()).isEqualTo("nightly");
        assertThat(n.get("state").asText()).isEqualTo("running");
        assertThat(n.get("task_count").asInt()).isEqualTo(2);
        assertThat(n.get("counts").get("scheduled").asInt()).isEqualTo(1);
        assertThat(n.get("counts").get("pending").asInt()).isEqualTo(1);
        assertThat(listed.get(1).get("state").asText()).isEqualTo("failed");
        assertThat(web.getJson("/api/workflows?limit=1&before=" + nightly.id()))
                .extracting(w -> w.get("id").asLong()).containsExactly(upload.id());
        assertThat(web.get("/api/workflows?limit=0").statusCode()).isEqualTo(400);
        assertThat(web.get("/workflows?before=soon").statusCode()).isEqualTo(400);
        assertThat(web.get("/workflows?before=" + upload.id()).body()).contains("No older workflows.");
    }

    @Test
    void aWorkflowsPageDrawsItsGraphAndListsEachTaskLinkingToItsJob() throws Exception {
        start();
        WorkflowResult upload = failedUpload("upload-42");
        String html = web.get("/workflows/" + upload.id()).body();
        assertThat(html).contains("Workflow " + upload.id()).contains("id=\"workflow-state\">failed<")
                .contains("data-state=\"completed\">3 completed<");

        // One box a task, each linking to its job; one arrow a dependency.
        String svg = html.substring(html.indexOf("<svg id=\"workflow-graph\""), html.indexOf("</svg>"));
        assertThat(count(svg, "<g class=\"node st-")).isEqualTo(5);
        for (String task : List.of("fetch", "resize", "scan", "notify", "report")) {
            assertThat(svg).contains("<a class=\"task-link\" href=\"/jobs/" + upload.task(task) + "\"><g class=\"node st-")
                    .contains("data-task=\"" + task + "\"");
        }
        assertThat(svg).contains("<g class=\"node st-discarded\" data-task=\"scan\"")
                .contains("<g class=\"node st-cancelled\" data-task=\"notify\"");
        assertThat(count(svg, "<path class=\"edge")).isEqualTo(5);
        assertThat(svg).contains("data-from=\"fetch\" data-to=\"resize\"").contains("data-from=\"scan\" data-to=\"report\"")
                .contains("class=\"edge done\" d=\"").contains("marker-end=\"url(#arrow)\"");
        // Layers left to right: fetch, then resize and scan, then notify and report.
        assertThat(x(svg, "fetch")).isLessThan(x(svg, "resize"));
        assertThat(x(svg, "resize")).isEqualTo(x(svg, "scan")).isLessThan(x(svg, "notify"));
        assertThat(x(svg, "notify")).isEqualTo(x(svg, "report"));

        String tasks = html.substring(html.indexOf("id=\"tasks-table\""));
        assertThat(tasks).contains("<tr data-task=\"notify\">")
                .contains("href=\"/jobs/" + upload.task("notify") + "\">" + upload.task("notify") + "</a>")
                .contains("resize, scan").contains("runs all the same").contains("cancelled too");
        assertThat(html).contains("id=\"cancel\"").contains("id=\"retry\"");

        // A task whose job was deleted is drawn without a link.
        web.runnel.jobs().delete(upload.task("fetch"));
        String after = web.get("/workflows/" + upload.id()).body();
        assertThat(after).contains("<g class=\"node st-deleted\" data-task=\"fetch\"")
                .doesNotContain("href=\"/jobs/" + upload.task("fetch") + "\"");

        JsonNode w = web.getJson("/api/workflows/" + upload.id());
        assertThat(w.get("state").asText()).isEqualTo("failed");
        assertThat(w.get("counts").get("deleted").asInt()).isEqualTo(1);
        assertThat(w.get("tasks")).extracting(t -> t.get("name").asText())
                .containsExactly("fetch", "resize", "scan", "notify", "report");
        assertThat(w.get("tasks").get(0).get("state").isNull()).isTrue();
        assertThat(w.get("tasks").get(3).get("after")).extracting(JsonNode::asText).containsExactly("resize", "scan");
        assertThat(w.get("tasks").get(4).get("on_dependency_failure").asText()).isEqualTo("run");
        assertThat(w.get("tasks").get(3).get("job_id").asLong()).isEqualTo(upload.task("notify"));
    }

    /** The x of task {@code task}'s box in the graph. */
    private static int x(String svg, String task) {
        Matcher m = Pattern.compile("data-task=\"" + task + "\"><title>[^<]*</title><rect x=\"(\\d+)\"").matcher(svg);
        assertThat(m.find()).as(task).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void cancelAndRetryGoThroughTheFormsAndTheApiAndAreAudited() throws Exception {
        start();
        WorkflowResult nightly = waiting("nightly");
        String token = web.csrf();
        HttpResponse<String> cancelled = web.postForm("/workflows/" + nightly.id() + "/cancel", "_csrf=" + token);
        assertThat(cancelled.statusCode()).isEqualTo(303);
        assertThat(cancelled.headers().firstValue("Location")).hasValue("/workflows/" + nightly.id());
        assertThat(web.runnel.jobs().get(nightly.task("export")).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(web.runnel.jobs().get(nightly.task("mail")).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(web.get("/workflows/" + nightly.id()).body()).contains("id=\"workflow-state\">cancelled<");

        JsonNode retried = web.postJson("/api/workflows/" + nightly.id() + "/retry", "");
        assertThat(retried.get("action").asText()).isEqualTo("retry");
        assertThat(retried.get("changed").asInt()).isEqualTo(2);
        Await.until("the retried workflow to complete",
                () -> web.runnel.workflows().get(nightly.id()).orElseThrow().state() == WorkflowState.COMPLETED);
        JsonNode none = web.postJson("/api/workflows/" + nightly.id() + "/cancel", "");
        assertThat(none.get("changed").asInt()).isZero();

        JsonNode audit = web.getJson("/api/audit");
        assertThat(audit).extracting(a -> a.get("action").asText() + " " + a.get("target").asText() + " "
                + a.get("count").asLong()).containsExactly("workflow.cancel workflow " + nightly.id() + " 0",
                        "workflow.retry workflow " + nightly.id() + " 2", "workflow.cancel workflow " + nightly.id() + " 2");
        assertThat(audit.get(0).get("actor").asText()).isEqualTo("local");

        // Without the token, or for a workflow that does not exist, nothing changes.
        WorkflowResult other = waiting("other");
        assertThat(web.postForm("/workflows/" + other.id() + "/cancel", "_csrf=forged").statusCode()).isEqualTo(403);
        assertThat(web.post("/api/workflows/" + other.id() + "/cancel", "", Optional.empty()).statusCode()).isEqualTo(403);
        HttpResponse<String> noOrigin = web.http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(web.url("/api/workflows/" + other.id() + "/cancel"))).header("X-CSRF-Token", token)
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(noOrigin.statusCode()).as("a POST without Origin or Referer").isEqualTo(403);
        assertThat(web.postForm("/workflows/987654321/cancel", "_csrf=" + token).statusCode()).isEqualTo(404);
        assertThat(web.post("/api/workflows/" + other.id() + "/purge", "", Optional.of(token)).statusCode()).isEqualTo(404);
        assertThat(web.get("/workflows/" + other.id() + "/cancel").statusCode()).as("a GET changes nothing").isEqualTo(404);
        assertThat(web.runnel.jobs().get(other.task("export")).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        assertThat(web.getJson("/api/audit")).hasSize(3);
    }

    @Test
    void aReadOnlyUserSeesNoButtonsAndIsRefused() throws Exception {
        start(b -> b.basicAuth("ops", "s3cret", WebRole.OPERATOR).basicAuth("viewer", "look", WebRole.READ_ONLY));
        WorkflowResult nightly = waiting("nightly");
        web.as("viewer", "look");
        String html = web.get("/workflows/" + nightly.id()).body();
        assertThat(html).contains("data-task=\"export\"").doesNotContain("id=\"cancel\"").doesNotContain("id=\"retry\"");
        HttpResponse<String> refused = web.post("/api/workflows/" + nightly.id() + "/cancel", "", Optional.of(web.csrf()));
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("read-only");
        assertThat(web.postForm("/workflows/" + nightly.id() + "/cancel", "_csrf=" + web.csrf()).statusCode())
                .isEqualTo(403);
        assertThat(web.runnel.jobs().get(nightly.task("export")).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        web.as("ops", "s3cret");
        assertThat(web.get("/workflows/" + nightly.id()).body()).contains("id=\"cancel\"");
        assertThat(web.getJson("/api/audit")).isEmpty();
    }

    @Test
    void theBatchesPagesShowProgressCountsAndCallbacks() throws Exception {
        start();
        BatchResult done = web.runnel.batches().insert(Batch.builder().name("import").onSuccess(new Greet("success"))
                .onComplete(new Greet("complete")).onDiscard(new Greet("discard")).build(),
                List.of(InsertRequest.of(new Greet("a")), InsertRequest.of(new Greet("b")),
                        InsertRequest.of(new Fail("bad row"))));
        Await.until("the import batch to complete and its callbacks to be inserted", () -> {
            var b = web.runnel.batches().get(done.id()).orElseThrow();
            return b.isComplete() && b.completeJob().isPresent() && b.discardJob().isPresent();
        });
        var row = web.runnel.batches().get(done.id()).orElseThrow();
        web.awaitState(row.completeJob().orElseThrow(), JobState.COMPLETED);
        InsertOptions later = InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(3_600)).build();
        BatchResult open = web.runnel.batches().insert(Batch.builder().build(), List.of(
                new InsertRequest(new Greet("x"), later), new InsertRequest(new Greet("y"), later),
                new InsertRequest(new Greet("z"), later), new InsertRequest(new Greet("w"), later)));
        web.runnel.jobs().delete(open.jobs().get(0).id());

        String list = web.get("/batches").body();
        assertThat(list).contains("<a href=\"/batches\" class=\"on\">Batches</a>");
        String doneRow = list.substring(list.indexOf("<tr data-id=\"" + done.id() + "\""));
        doneRow = doneRow.substring(0, doneRow.indexOf("</tr>"));
        assertThat(doneRow).contains("import").contains("100% · complete")
                .contains("data-count=\"completed\">2<").contains("data-count=\"discarded\">1<")
                .contains("data-count=\"unfinished\">0<")
                // Two thirds completed, one third discarded: the bar's parts.
                .contains("<rect class=\"seg st-completed\" x=\"0\" y=\"0\" width=\"666\"")
                .contains("<rect class=\"seg st-discarded\" x=\"666\" y=\"0\" width=\"334\"");
        String openRow = list.substring(list.indexOf("<tr data-id=\"" + open.id() + "\""));
        openRow = openRow.substring(0, openRow.indexOf("</tr>"));
        assertThat(openRow).contains("25%").doesNotContain("· complete").contains("data-count=\"deleted\">1<")
                .contains("data-count=\"unfinished\">3<").contains("<rect class=\"seg st-deleted\" x=\"0\" y=\"0\" width=\"250\"");

        String page = web.get("/batches/" + done.id()).body();
        assertThat(page).contains("Batch " + done.id()).contains("id=\"batch-state\">complete<")
                .contains("<span class=\"num\" data-count=\"total\">3</span>")
                .contains("<span class=\"num\" data-count=\"completed\">2</span>")
                .contains("<span class=\"num\" data-count=\"discarded\">1</span>")
                .contains("<tr data-callback=\"complete\">").contains("<tr data-callback=\"discard\">")
                .doesNotContain("<tr data-callback=\"success\">")
                .contains("href=\"/jobs/" + row.completeJob().get() + "\"");
        assertThat(web.get("/batches/" + open.id()).body()).contains("None inserted yet.")
                .contains("id=\"batch-state\">running<");

        JsonNode listed = web.getJson("/api/batches");
        assertThat(listed).extracting(b -> b.get("id").asLong()).containsExactly(open.id(), done.id());
        JsonNode b = web.getJson("/api/batches/" + done.id());
        assertThat(b.get("name").asText()).isEqualTo("import");
        assertThat(b.get("total").asLong()).isEqualTo(3);
        assertThat(b.get("completed").asLong()).isEqualTo(2);
        assertThat(b.get("discarded").asLong()).isEqualTo(1);
        assertThat(b.get("complete").asBoolean()).isTrue();
        assertThat(b.get("callback_jobs").get("complete").asLong()).isEqualTo(row.completeJob().get());
        assertThat(b.get("callback_jobs").get("success").isNull()).isTrue();
        assertThat(web.getJson("/api/batches/" + open.id()).get("unfinished").asLong()).isEqualTo(3);
    }

    @Test
    void aJobsPageShowsWhatItWaitsForWhatWaitsForItAndItsWorkflowBatchAndSequence() throws Exception {
        start();
        WorkflowResult upload = failedUpload("upload-42");
        String notify = web.get("/jobs/" + upload.task("notify")).body();
        assertThat(notify).contains("id=\"job-links\"")
                .contains("<dd id=\"link-workflow\"><a href=\"/workflows/" + upload.id() + "\">upload-42 (" + upload.id()
                        + ")</a>, task <strong>notify</strong></dd>");
        String waitsFor = section(notify, "link-waits-for");
        assertThat(waitsFor).contains("href=\"/jobs/" + upload.task("resize") + "\">resize " + upload.task("resize") + "</a>")
                .contains("href=\"/jobs/" + upload.task("scan") + "\">scan " + upload.task("scan") + "</a>")
                .contains("st-discarded");
        assertThat(section(notify, "link-waited-on-by")).contains("no job");
        String fetch = web.get("/jobs/" + upload.task("fetch")).body();
        assertThat(section(fetch, "link-waits-for")).contains("no job");
        assertThat(section(fetch, "link-waited-on-by")).contains(">resize " + upload.task("resize") + "<")
                .contains(">scan " + upload.task("scan") + "<");

        JsonNode api = web.getJson("/api/jobs/" + upload.task("notify")).get("links");
        assertThat(api.get("workflow_id").asLong()).isEqualTo(upload.id());
        assertThat(api.get("task").asText()).isEqualTo("notify");
        assertThat(api.get("batch_id").isNull()).isTrue();
        assertThat(api.get("waits_for")).extracting(JsonNode::asLong)
                .containsExactlyInAnyOrder(upload.task("resize"), upload.task("scan"));
        assertThat(api.get("waited_on_by")).isEmpty();

        // A batch's job links to its batch; a sequence's job to the one before it.
        BatchResult batch = web.runnel.batches().insert(Batch.builder().name("import").build(),
                List.of(new InsertRequest(new Greet("a"), InsertOptions.builder()
                        .scheduledAt(Instant.now().plusSeconds(3_600)).build())));
        String inBatch = web.get("/jobs/" + batch.jobs().getFirst().id()).body();
        assertThat(inBatch).contains("<dd id=\"link-batch\"><a href=\"/batches/" + batch.id() + "\">import (" + batch.id()
                + ")</a></dd>").doesNotContain("id=\"link-workflow\"");
        assertThat(web.getJson("/api/jobs/" + batch.jobs().getFirst().id()).get("links").get("batch_id").asLong())
                .isEqualTo(batch.id());

        long first = web.insert(new Greet("first"), InsertOptions.builder().sequence("customer-7")
                .scheduledAt(Instant.now().plusSeconds(3_600)).build());
        long second = web.insert(new Greet("second"), InsertOptions.builder().sequence("customer-7").build());
        String next = web.get("/jobs/" + second).body();
        assertThat(next).contains("<dd id=\"link-sequence\"><code>customer-7</code>");
        assertThat(section(next, "link-waits-for")).contains("href=\"/jobs/" + first + "\">greet " + first + "</a>")
                .contains("st-scheduled");
        assertThat(section(web.get("/jobs/" + first).body(), "link-waited-on-by"))
                .contains("href=\"/jobs/" + second + "\">greet " + second + "</a>").contains("st-pending");
        assertThat(web.getJson("/api/jobs/" + second).get("links").get("sequence").asText()).isEqualTo("customer-7");

        // A job tied to nothing has no such section, and null links.
        long plain = web.insertLater(new Greet("plain"), "default");
        assertThat(web.get("/jobs/" + plain).body()).doesNotContain("id=\"job-links\"");
        assertThat(web.getJson("/api/jobs/" + plain).get("links").isNull()).isTrue();
    }

    /** The {@code <dd>} of {@code id}. */
    private static String section(String html, String id) {
        String from = html.substring(html.indexOf("<dd id=\"" + id + "\""));
        return from.substring(0, from.indexOf("</dd>"));
    }

    @Test
    void namesAreShownAsTextAndMissingOnesAre404() throws Exception {
        start();
        WorkflowResult wf = web.runnel.workflows().insert(Workflow.builder(SCRIPT)
                .task(SCRIPT + "a", new Greet("a"))
                .task("b\"><img src=x onerror=alert(1)>", new Greet("b"), SCRIPT + "a")
                .build());
        BatchResult batch = web.runnel.batches().insert(Batch.builder().name(SCRIPT).build(),
                List.of(InsertRequest.of(new Greet("c"))));
        for (String path : List.of("/workflows", "/workflows/" + wf.id(), "/batches", "/batches/" + batch.id(),
                "/jobs/" + wf.task(SCRIPT + "a"), "/jobs/" + batch.jobs().getFirst().id())) {
            String html = web.get(path).body();
            assertThat(html).as(path).doesNotContain("<script>alert").doesNotContain("<img src=x");
        }
        assertThat(web.get("/workflows/" + wf.id()).body()).contains("&lt;script&gt;alert(");

        for (String path : List.of("/workflows/987654321", "/batches/987654321", "/api/workflows/987654321",
                "/api/batches/987654321", "/workflows/1/graph", "/api/workflows/1/tasks")) {
            assertThat(web.get(path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(web.get("/workflows/987654321").body()).contains("no workflow 987654321");
        assertThat(web.get("/api/batches/987654321").body()).contains("no batch 987654321");
        assertThat(web.get("/workflows/abc").statusCode()).isEqualTo(400);
        assertThat(web.get("/api/batches/abc").statusCode()).isEqualTo(400);
    }

    @Test
    void aWorkflowTooLargeToDrawIsListed() throws Exception {
        start();
        Workflow.Builder fan = Workflow.builder("fan-out").task(WorkflowTask.of("root", new Greet("root"))
                .options(InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(3_600)).build()));
        for (int i = 0; i < dev.runnel.web.internal.WorkflowGraph.MAX_DRAWN; i++) {
            fan.task("leaf-" + i, new Greet("leaf"), "root");
        }
        WorkflowResult wf = web.runnel.workflows().insert(fan.build());
        String html = web.get("/workflows/" + wf.id()).body();
        assertThat(html).contains("id=\"graph-too-big\"").doesNotContain("<svg id=\"workflow-graph\"")
                .contains("<tr data-task=\"leaf-199\">");
    }
}
