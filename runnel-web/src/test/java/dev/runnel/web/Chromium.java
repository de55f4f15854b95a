package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium for the browser tests: Debian's chromium and chromium-driver at fixed paths,
 * so that Selenium Manager downloads nothing. Every page it opens records what its
 * Content-Security-Policy blocked, from before its first script runs.
 */
final class Chromium {
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private Chromium() {}

    /** A browser with its profile under {@code dir}; quit it after the test. */
    static ChromeDriver open(Path dir) throws IOException {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + Files.createDirectories(dir.resolve("profile")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
        ChromeDriver browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
                "window.__blocked = []; document.addEventListener('securitypolicyviolation', function (e) {"
                        + " window.__blocked.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':'"
                        + " + e.lineNumber); });"));
        return browser;
    }

    /**
     * Clicks {@code e} and waits for the page it leads to: a new document (the old one's mark is
     * gone), loaded. Not by the URL, which may be the one already shown, nor by the element going
     * stale: Chromium may report a node of the page left behind as an unknown error.
     */
    static void clickAndLoad(ChromeDriver browser, WebDriverWait wait, WebElement e) {
        browser.executeScript("window.__leaving = true");
        e.click();
        wait.until(d -> Boolean.TRUE.equals(browser.executeScript(
                "return window.__leaving !== true && document.readyState === 'complete'")));
    }

    /** Fails when the Content-Security-Policy blocked anything on the page shown: the page needs what it forbids. */
    static void assertNothingBlocked(ChromeDriver browser, String page) {
        assertThat(browser.executeScript("return window.__blocked")).as(page).isEqualTo(List.of());
    }
}
