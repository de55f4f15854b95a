package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Batch;
import dev.runnel.BatchResult;
import dev.runnel.DependencyPolicy;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobState;
import dev.runnel.Workflow;
import dev.runnel.WorkflowResult;
import dev.runnel.WorkflowState;
import dev.runnel.WorkflowTask;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.testkit.Await;
import dev.runnel.web.WebFixture.Fail;
import dev.runnel.web.WebFixture.Greet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Workflows and batches in real headless Chromium, on SQLite: from the menu to a workflow's graph,
 * from a box of the graph to its job and back, a workflow cancelled and retried with its buttons,
 * and a batch's progress. With RUNNEL_SCREENSHOTS set to a directory, it saves the pages there.
 */
class DashboardLinksBrowserTest {
    @TempDir
    Path dir;

    private WebFixture web;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeEach
    void start() throws Exception {
        web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")));
        browser = Chromium.open(dir);
        wait = new WebDriverWait(browser, Duration.ofSeconds(15));
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (web != null) {
            web.close();
        }
    }

    private void clickAndLoad(WebElement e) {
        Chromium.clickAndLoad(browser, wait, e);
    }

    /** Clicks a button whose form asks first, accepts, and waits for the page the form leads to. */
    private void confirmAndLoad(WebElement button) {
        browser.executeScript("window.__leaving = true");
        button.click();
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(d -> Boolean.TRUE.equals(browser.executeScript(
                "return window.__leaving !== true && document.readyState === 'complete'")));
    }

    @Test
    void anOperatorFollowsAWorkflowFromTheMenuToItsTasksCancelsAndRetriesIt() throws Exception {
        WorkflowResult upload = web.runnel.workflows().insert(Workflow.builder("upload-42")
                .task("fetch", new Greet("fetch"))
                .task("resize", new Greet("resize"), "fetch")
                .task("thumbnail", new Greet("thumbnail"), "resize")
                .task("scan", new Fail("the virus scanner timed out"), "fetch")
                .task("notify", new Greet("notify"), "thumbnail", "scan")
                .task(WorkflowTask.of("report", new Greet("report")).after("scan").onDependencyFailure(DependencyPolicy.RUN))
                .build());
        Await.until("the upload to fail",
                () -> web.runnel.workflows().get(upload.id()).orElseThrow().state() == WorkflowState.FAILED);
        InsertOptions later = InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(3_600)).build();
        WorkflowResult nightly = web.runnel.workflows().insert(Workflow.builder("nightly-export")
                .task(WorkflowTask.of("export", new Greet("export")).options(later))
                .task("compress", new Greet("compress"), "export")
                .task("mail", new Greet("mail"), "compress")
                .build());

        // From the menu to the list, and from the list to the workflow.
        browser.get(web.url("/"));
        clickAndLoad(browser.findElement(By.linkText("Workflows")));
        assertThat(browser.getCurrentUrl()).endsWith("/workflows");
        assertThat(browser.findElement(By.cssSelector("#workflows-table tr[data-id='" + upload.id() + "'] .st")).getText())
                .isEqualTo("failed");
        assertThat(browser.findElement(By.cssSelector("#workflows-table tr[data-id='" + nightly.id() + "'] .st")).getText())
                .isEqualTo("running");
        Chromium.assertNothingBlocked(browser, "workflows");
        screenshot("workflows");
        clickAndLoad(browser.findElement(By.cssSelector("#workflows-table tr[data-id='" + upload.id() + "'] a.workflow-link")));

        // The graph: a box a task, in layers from left to right, coloured by state.
        assertThat(browser.findElement(By.id("workflow-state")).getText()).isEqualTo("failed");
        List<WebElement> boxes = browser.findElements(By.cssSelector("#workflow-graph g.node"));
        assertThat(boxes).hasSize(6);
        assertThat(browser.findElements(By.cssSelector("#workflow-graph path.edge"))).hasSize(6);
        assertThat(left("fetch")).isLessThan(left("resize"));
        assertThat(left("resize")).isEqualTo(left("scan")).isLessThan(left("thumbnail"));
        assertThat(left("thumbnail")).isLessThan(left("notify"));
        String discarded = (String) browser.executeScript("return getComputedStyle(document.querySelector("
                + "'#workflow-graph g[data-task=scan] rect')).stroke");
        String completed = (String) browser.executeScript("return getComputedStyle(document.querySelector("
                + "'#workflow-graph g[data-task=fetch] rect')).stroke");
        assertThat(discarded).isNotEqualTo(completed);
        Chromium.assertNothingBlocked(browser, "workflow");
        screenshot("workflow");

        // A box leads to its task's job, whose page leads back to the workflow.
        clickAndLoad(browser.findElement(By.cssSelector("#workflow-graph a.task-link g[data-task=notify]")));
        assertThat(browser.getCurrentUrl()).endsWith("/jobs/" + upload.task("notify"));
        assertThat(browser.findElement(By.id("job-state")).getText()).isEqualTo("cancelled");
        assertThat(browser.findElement(By.id("link-workflow")).getText()).contains("upload-42").contains("notify");
        assertThat(browser.findElement(By.id("link-waits-for")).getText())
                .contains("thumbnail " + upload.task("thumbnail")).contains("scan " + upload.task("scan"));
        Chromium.assertNothingBlocked(browser, "job");
        screenshot("job-links");
        clickAndLoad(browser.findElement(By.cssSelector("#link-waits-for a[data-id='" + upload.task("scan") + "']")));
        assertThat(browser.getCurrentUrl()).endsWith("/jobs/" + upload.task("scan"));
        clickAndLoad(browser.findElement(By.cssSelector("#link-workflow a")));
        assertThat(browser.getCurrentUrl()).endsWith("/workflows/" + upload.id());

        // Retry it: the scan fails again, and the workflow with it.
        clickAndLoad(browser.findElement(By.id("retry")));
        assertThat(browser.getCurrentUrl()).endsWith("/workflows/" + upload.id());
        Await.until("the retried scan fails again",
                () -> web.runnel.jobs().get(upload.task("scan")).orElseThrow().errors().size() == 2);

        // Cancel the nightly export: it asks first, then every task is cancelled.
        browser.get(web.url("/workflows/" + nightly.id()));
        assertThat(browser.findElement(By.id("workflow-state")).getText()).isEqualTo("running");
        confirmAndLoad(browser.findElement(By.id("cancel")));
        assertThat(browser.getCurrentUrl()).endsWith("/workflows/" + nightly.id());
        assertThat(browser.findElement(By.id("workflow-state")).getText()).isEqualTo("cancelled");
        for (String task : List.of("export", "compress", "mail")) {
            assertThat(web.runnel.jobs().get(nightly.task(task)).orElseThrow().state()).as(task)
                    .isEqualTo(JobState.CANCELLED);
        }

        // Both changes are in the audit log, with who made them and how many tasks they changed.
        clickAndLoad(browser.findElement(By.linkText("Audit log")));
        String audit = browser.findElement(By.tagName("table")).getText();
        assertThat(audit).contains("workflow.cancel").contains("workflow " + nightly.id())
                .contains("workflow.retry").contains("workflow " + upload.id());
    }

    @Test
    void aBatchShowsItsProgressAndCallbacks() throws Exception {
        List<InsertRequest> jobs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            jobs.add(InsertRequest.of(new Greet("row " + i)));
        }
        jobs.add(InsertRequest.of(new Fail("row 6 is malformed")));
        InsertOptions later = InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(3_600)).build();
        for (int i = 7; i < 10; i++) {
            jobs.add(new InsertRequest(new Greet("row " + i), later));
        }
        BatchResult batch = web.runnel.batches().insert(Batch.builder().name("customer-import")
                .onComplete(new Greet("import finished")).onDiscard(new Greet("a row failed")).build(), jobs);
        Await.until("seven jobs of the batch finished",
                () -> web.runnel.batches().get(batch.id()).orElseThrow().finished() == 7);

        browser.get(web.url("/"));
        clickAndLoad(browser.findElement(By.linkText("Batches")));
        WebElement row = browser.findElement(By.cssSelector("#batches-table tr[data-id='" + batch.id() + "']"));
        assertThat(row.getText()).contains("customer-import").contains("70%");
        assertThat(row.findElements(By.cssSelector("svg.bar rect.seg"))).hasSize(2);
        Chromium.assertNothingBlocked(browser, "batches");
        screenshot("batches");
        clickAndLoad(row.findElement(By.cssSelector("a.batch-link")));
        assertThat(browser.findElement(By.id("batch-state")).getText()).isEqualTo("running");
        assertThat(browser.findElement(By.cssSelector("[data-count=completed]")).getText()).isEqualTo("6");
        assertThat(browser.findElement(By.cssSelector("[data-count=unfinished]")).getText()).isEqualTo("3");
        // The bar's completed part is six tenths of its width as drawn.
        Number share = (Number) browser.executeScript("var bar = document.querySelector('.big-bar svg.bar');"
                + " var seg = bar.querySelector('rect.st-completed');"
                + " return seg.getBoundingClientRect().width / bar.getBoundingClientRect().width;");
        assertThat(share.doubleValue()).isBetween(0.59, 0.61);
        WebElement discard = browser.findElement(By.cssSelector("#callbacks-table tr[data-callback=discard]"));
        assertThat(discard.getText()).contains("a job was discarded");
        Chromium.assertNothingBlocked(browser, "batch");
        screenshot("batch");
        clickAndLoad(discard.findElement(By.cssSelector("a.job-link")));
        assertThat(browser.findElement(By.id("job-args")).getText()).contains("a row failed");
    }

    /** Where task {@code task}'s box starts, as drawn. */
    private long left(String task) {
        return ((Number) browser.executeScript("return Math.round(document.querySelector("
                + "'#workflow-graph g[data-task=" + task + "]').getBoundingClientRect().left)")).longValue();
    }

    private void screenshot(String name) throws Exception {
        String target = System.getenv("RUNNEL_SCREENSHOTS");
        Path out = target != null && !target.isBlank() ? Path.of(target) : Path.of("target", "screenshots");
        Files.createDirectories(out);
        Files.write(out.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }
}
