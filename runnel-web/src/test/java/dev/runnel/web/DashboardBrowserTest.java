package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.JobState;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.testkit.Await;
import dev.runnel.web.WebFixture.Fail;
import dev.runnel.web.WebFixture.Greet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in real headless Chromium (Debian's chromium and chromium-driver, at fixed paths
 * so Selenium Manager downloads nothing), on SQLite: what an operator does, click by click. With
 * RUNNEL_SCREENSHOTS set to a directory, it saves the overview, jobs list and job detail there.
 */
class DashboardBrowserTest {
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

    private void assertNothingBlocked(String page) {
        Chromium.assertNothingBlocked(browser, page);
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
    void anOperatorsRound() throws Exception {
        List<Long> done = new ArrayList<>();
        for (String name : List.of("Ada", "Grace", "Edsger", "Barbara")) {
            done.add(web.insert(new Greet(name), InsertOptions.builder().tags("welcome").build()));
        }
        long failed = web.insert(new Fail("payment gateway timed out after 30s"));
        long xss = web.insert(new Fail("<script>alert('pwned')</script>"));
        List<Long> later = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            later.add(web.insertLater(new Greet("report-" + i), "other"));
        }
        done.forEach(id -> web.awaitState(id, JobState.COMPLETED));
        web.awaitState(failed, JobState.DISCARDED);
        web.awaitState(xss, JobState.DISCARDED);

        // The overview: counts by state, refreshed live.
        browser.get(web.url("/"));
        wait.until(ExpectedConditions.textToBe(By.cssSelector("#counts .num[data-state=completed]"), "4"));
        assertThat(browser.findElement(By.cssSelector("#counts .num[data-state=discarded]")).getText()).isEqualTo("2");
        assertThat(browser.findElement(By.cssSelector("#counts .num[data-state=scheduled]")).getText()).isEqualTo("3");
        wait.until(d -> !d.findElements(By.cssSelector("#chart .uplot")).isEmpty());
        long another = web.insert(new Greet("Margaret"));
        web.awaitState(another, JobState.COMPLETED);
        wait.until(ExpectedConditions.textToBe(By.cssSelector("#counts .num[data-state=completed]"), "5"));
        // The chart counts what finished between its samples (every 5 s): wait for them to see every job.
        Await.until("the chart counts the finished jobs", () -> {
            try {
                var chart = web.getJson("/api/throughput");
                long completed = chart.get("completed").valueStream().mapToLong(n -> n.asLong()).sum();
                long discarded = chart.get("failed").valueStream().mapToLong(n -> n.asLong()).sum();
                return completed == 5 && discarded == 2;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        browser.navigate().refresh();
        wait.until(d -> !d.findElements(By.cssSelector("#chart .uplot")).isEmpty());
        assertNothingBlocked("overview");
        screenshot("overview");

        // The jobs list, filtered by kind through its form.
        browser.get(web.url("/jobs"));
        screenshot("jobs");
        WebElement kind = browser.findElement(By.name("kind"));
        kind.sendKeys("fail");
        kind.submit();
        wait.until(ExpectedConditions.urlContains("kind=fail"));
        List<String> kinds = browser.findElements(By.cssSelector("#jobs-table tbody tr td:nth-child(4)")).stream()
                .map(WebElement::getText).toList();
        assertThat(kinds).containsOnly("fail").hasSize(2);

        // A job, opened from the list: its error is shown as text, and no script of its runs.
        browser.findElement(By.cssSelector("#jobs-table tr[data-id='" + xss + "'] a.job-link")).click();
        wait.until(ExpectedConditions.urlContains("/jobs/" + xss));
        assertThat(browser.findElement(By.cssSelector(".error .msg")).getText()).contains("<script>alert('pwned')</script>");
        assertThatThrownBy(() -> browser.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);

        browser.get(web.url("/jobs/" + failed));
        assertThat(browser.findElement(By.id("job-state")).getText()).isEqualTo("discarded");
        assertNothingBlocked("job");
        screenshot("job");

        // Retry it: it runs again and fails again, a second error recorded.
        browser.findElement(By.id("retry")).click();
        Await.until("the retried job's second attempt", () -> web.runnel.jobs().get(failed).orElseThrow().errors().size() == 2);

        // Bulk-cancel a selection of the scheduled jobs: while jobs are selected the list holds
        // still (a poll comes and is held), and the selection stays.
        browser.get(web.url("/jobs?state=scheduled"));
        browser.executeScript("window.__polls = []; document.addEventListener('htmx:confirm', function (e) {"
                + " if (e.detail.elt.id === 'jobs-table') { window.__polls.push(e.defaultPrevented); } });");
        browser.findElement(By.cssSelector("input.sel[value='" + later.get(0) + "']")).click();
        browser.findElement(By.cssSelector("input.sel[value='" + later.get(1) + "']")).click();
        wait.until(d -> ((List<?>) browser.executeScript("return window.__polls")).contains(true));
        assertThat(browser.findElement(By.cssSelector("input.sel[value='" + later.get(0) + "']")).isSelected()).isTrue();
        assertNothingBlocked("jobs");
        Chromium.clickAndLoad(browser, wait, browser.findElement(By.cssSelector("#bulk button[value=cancel]")));
        assertThat(browser.getCurrentUrl()).contains("state=scheduled");
        assertThat(web.runnel.jobs().get(later.get(0)).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(web.runnel.jobs().get(later.get(1)).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(web.runnel.jobs().get(later.get(2)).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        assertThat(browser.findElements(By.cssSelector("#jobs-table tbody tr[data-id]"))).hasSize(1);

        // Pause a queue.
        browser.get(web.url("/queues"));
        browser.findElement(By.cssSelector("tr[data-queue=other] button.queue-toggle")).click();
        wait.until(ExpectedConditions.textToBe(By.cssSelector("tr[data-queue=other] button.queue-toggle"), "Resume"));
        assertThat(web.runnel.queues().get("other").orElseThrow().paused()).isTrue();

        // Delete a job from its page: it asks first; dismissed, nothing happens.
        browser.get(web.url("/jobs/" + later.get(2)));
        browser.findElement(By.id("delete")).click();
        wait.until(ExpectedConditions.alertIsPresent()).dismiss();
        assertThat(web.runnel.jobs().get(later.get(2))).isPresent();
        browser.findElement(By.id("delete")).click();
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(ExpectedConditions.urlMatches("/jobs$"));
        assertThat(web.runnel.jobs().get(later.get(2))).isEmpty();

        // An error page's Back link goes back.
        browser.get(web.url("/jobs/999999"));
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
        assertNothingBlocked("error");
        browser.findElement(By.cssSelector("a[data-back]")).click();
        wait.until(ExpectedConditions.urlMatches("/jobs$"));

        // Each change is in the audit log.
        browser.get(web.url("/audit"));
        String audit = browser.findElement(By.tagName("table")).getText();
        assertThat(audit).contains("job.retry").contains("jobs.cancel.selected").contains("queue.pause").contains("job.delete");
        assertNothingBlocked("audit");

        // Dark, when the system prefers it.
        String light = (String) browser.executeScript("return getComputedStyle(document.body).backgroundColor");
        browser.executeCdpCommand("Emulation.setEmulatedMedia", java.util.Map.of("features",
                List.of(java.util.Map.of("name", "prefers-color-scheme", "value", "dark"))));
        browser.get(web.url("/jobs"));
        String dark = (String) browser.executeScript("return getComputedStyle(document.body).backgroundColor");
        assertThat(dark).isNotEqualTo(light).isEqualTo("rgb(21, 23, 28)");
        screenshot("jobs-dark");
        browser.executeCdpCommand("Emulation.setEmulatedMedia", java.util.Map.of("features",
                List.of(java.util.Map.of("name", "prefers-color-scheme", "value", "light"))));

        // The phone-width overview still fits.
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.get(web.url("/"));
        wait.until(ExpectedConditions.textToBe(By.cssSelector("#counts .num[data-state=completed]"), "5"));
        Object overflow = browser.executeScript("return document.documentElement.scrollWidth > window.innerWidth + 1");
        assertThat(overflow).isEqualTo(false);
        screenshot("overview-phone");
    }

    private void screenshot(String name) throws Exception {
        String target = System.getenv("RUNNEL_SCREENSHOTS");
        Path out = target != null && !target.isBlank() ? Path.of(target) : Path.of("target", "screenshots");
        Files.createDirectories(out);
        Files.write(out.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }
}
