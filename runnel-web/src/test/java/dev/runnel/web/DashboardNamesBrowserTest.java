package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.AuditRow;
import dev.runnel.InsertOptions;
import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.Schedule;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.testkit.Await;
import dev.runnel.web.WebFixture.Greet;
import dev.runnel.web.WebFixture.Named;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Queues, kinds and periodic jobs named like paths ({@code ../jobs/1/delete?}, {@code 50%off},
 * {@code a/b}, {@code a b}) in real headless Chromium, which resolves and normalises whatever a
 * page leaves unencoded: every page renders, and every button changes its own target and nothing
 * else, as the audit log and every other job's state show.
 */
class DashboardNamesBrowserTest {
    @TempDir
    Path dir;

    private WebFixture web;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeEach
    void start() throws Exception {
        web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")), DashboardApiScenario.TRICKY_NAMES, b -> b);
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

    @Test
    void eachButtonForANameLikeAPathChangesItsOwnTargetAndNothingElse() {
        List<String> names = DashboardApiScenario.TRICKY_NAMES;
        // Job 1, which ../jobs/1/delete? points at once resolved against the page.
        long bystander = web.insertLater(new Greet("bystander"), "default");
        Map<String, Long> jobs = new LinkedHashMap<>();
        for (String name : names) {
            jobs.put(name, web.insert(new Named(name, "in " + name), InsertOptions.builder().queue(name)
                    .scheduledAt(Instant.now().plusSeconds(3_600)).build()));
            web.runnel.periodic().upsert(PeriodicJob.of(name, Schedule.cron("0 3 * * *"), name, "{}"));
        }
        Await.until("queues registered", () -> web.runnel.queues().list().size() == 2 + names.size());
        Map<Long, JobState> expected = states();

        for (String name : names) {
            // Its queue, paused and resumed from the queues page.
            browser.get(web.url("/queues"));
            click(row("data-queue", name).findElement(By.cssSelector("button.queue-toggle")));
            assertThat(row("data-queue", name).findElement(By.cssSelector("button.queue-toggle")).getText())
                    .isEqualTo("Resume");
            assertThat(web.runnel.queues().list()).filteredOn(QueueRow::paused).extracting(QueueRow::name)
                    .containsExactly(name);
            assertLastAudit("queue.pause", "queue " + name);
            click(row("data-queue", name).findElement(By.cssSelector("button.queue-toggle")));
            assertThat(web.runnel.queues().list()).noneMatch(QueueRow::paused);
            assertLastAudit("queue.resume", "queue " + name);
            // Its link lists its one job.
            click(row("data-queue", name).findElement(By.tagName("a")));
            assertThat(listedIds()).containsExactly(jobs.get(name));

            // Its periodic job, paused and resumed from the periodic page.
            browser.get(web.url("/periodic"));
            click(row("data-periodic", name).findElement(By.cssSelector("button.periodic-toggle")));
            assertThat(web.runnel.periodic().list()).filteredOn(PeriodicRow::paused).extracting(PeriodicRow::name)
                    .containsExactly(name);
            assertLastAudit("periodic.pause", "periodic " + name);
            click(row("data-periodic", name).findElement(By.cssSelector("button.periodic-toggle")));
            assertThat(web.runnel.periodic().list()).noneMatch(PeriodicRow::paused);
            assertLastAudit("periodic.resume", "periodic " + name);
            assertThat(states()).isEqualTo(expected);
            Chromium.assertNothingBlocked(browser, "periodic page after " + name);
        }

        // The queues stay paused from here, so that a retried job waits where it is.
        names.forEach(web.runnel.queues()::pause);
        for (String name : names) {
            long id = jobs.get(name);
            // Listed by its kind, through the periodic page's link, then opened.
            browser.get(web.url("/periodic"));
            click(row("data-periodic", name).findElement(By.cssSelector("td:nth-child(2) a")));
            assertThat(listedIds()).containsExactly(id);
            click(browser.findElement(By.cssSelector("#jobs-table tr[data-id='" + id + "'] a.job-link")));
            assertThat(browser.findElement(By.cssSelector("main h1")).getText()).startsWith("Job " + id);

            click(browser.findElement(By.id("cancel")));
            assertThat(browser.findElement(By.id("job-state")).getText()).isEqualTo("cancelled");
            expected.put(id, JobState.CANCELLED);
            assertThat(states()).isEqualTo(expected);
            assertLastAudit("job.cancel", "job " + id);

            click(browser.findElement(By.id("retry")));
            assertThat(browser.findElement(By.id("job-state")).getText()).isEqualTo("available");
            expected.put(id, JobState.AVAILABLE);
            assertThat(states()).isEqualTo(expected);
            assertLastAudit("job.retry", "job " + id);

            // Every job of its kind, cancelled through the confirmation, which shows the filter and the count.
            browser.get(web.url("/jobs?kind=" + DashboardApiScenario.form(name)));
            click(browser.findElement(By.linkText("Cancel all…")));
            assertThat(browser.findElement(By.cssSelector("#confirm-filter tr[data-key=kind] code")).getText())
                    .isEqualTo(name);
            assertThat(browser.findElements(By.cssSelector("#confirm-filter tr[data-key]"))).hasSize(1);
            assertThat(browser.findElement(By.id("confirm-count")).getText()).isEqualTo("1");
            click(browser.findElement(By.id("confirm")));
            assertThat(listedIds()).containsExactly(id);
            expected.put(id, JobState.CANCELLED);
            assertThat(states()).isEqualTo(expected);
            assertLastAudit("jobs.cancel.filter", "kind=" + name);
            Chromium.assertNothingBlocked(browser, "jobs page after " + name);
        }
        assertThat(web.runnel.jobs().get(bystander).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        assertThat(web.runnel.audit().list(0, 1_000)).extracting(AuditRow::action)
                .noneMatch(a -> a.contains("delete"));
    }

    private void click(WebElement e) {
        Chromium.clickAndLoad(browser, wait, e);
    }

    /** The table row whose {@code attribute} is {@code name}, compared as a value, not as a selector. */
    private WebElement row(String attribute, String name) {
        return browser.findElements(By.cssSelector("tr[" + attribute + "]")).stream()
                .filter(r -> name.equals(r.getDomAttribute(attribute))).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + name + " on " + browser.getCurrentUrl()));
    }

    private List<Long> listedIds() {
        return browser.findElements(By.cssSelector("#jobs-table tbody tr[data-id]")).stream()
                .map(r -> Long.parseLong(r.getDomAttribute("data-id"))).toList();
    }

    private Map<Long, JobState> states() {
        Map<Long, JobState> m = new TreeMap<>();
        web.runnel.jobs().list(JobQuery.all().limit(JobQuery.MAX_LIMIT)).forEach(j -> m.put(j.id(), j.state()));
        return m;
    }

    private void assertLastAudit(String action, String target) {
        AuditRow last = web.runnel.audit().list(0, 1).getFirst();
        assertThat(last.action() + " " + last.target()).isEqualTo(action + " " + target);
    }
}
