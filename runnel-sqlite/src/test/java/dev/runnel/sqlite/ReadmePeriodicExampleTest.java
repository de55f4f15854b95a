package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.Runnel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's guide's periodic-jobs example (docs/guide/periodic-and-unique.md), run; the test fails if the page's code drifts from it. */
class ReadmePeriodicExampleTest {
    static final List<String> REPORTS = new CopyOnWriteArrayList<>();
    static final List<String> NEXT = new CopyOnWriteArrayList<>();

    // --- guide periodic example start ---
    record NightlyReport(String format) implements JobArgs {
        @Override public String kind() { return "nightly_report"; }
    }

    static void periodicExample(Path file) throws Exception {
        try (Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(file))
                .autoMigrate(true)
                .queue("default", 10)
                .worker(NightlyReport.class, job -> REPORTS.add(job.args().format()))
                .periodic(PeriodicJob.cron("nightly-report", "0 30 2 * * *", new NightlyReport("pdf"))
                        .zone(ZoneId.of("Europe/Berlin"))
                        .catchUp(PeriodicJob.CatchUp.LATEST)  // after downtime, run the latest missed tick once
                        .runOnStart(true))                     // once per new or changed definition, not per restart
                .periodic(PeriodicJob.every("purge", Duration.ofMinutes(5), "purge", "{\"olderThanDays\":30}"))
                .build()) {
            runnel.start();
            // At runtime, from any client: list (with next runs), get, upsert (add or edit), pause, resume, remove.
            for (PeriodicRow row : runnel.periodic().list()) {
                NEXT.add(row.name() + " " + row.nextRun(Instant.now()).orElseThrow());
            }
            runnel.periodic().pause("purge");
            Thread.sleep(1_000);
        }
    }
    // --- guide periodic example end ---

    @Test
    void exampleRunsAndMatchesTheGuide(@TempDir Path dir) throws Exception {
        periodicExample(dir.resolve("jobs.db"));
        assertThat(REPORTS).containsExactly("pdf"); // the run on start
        assertThat(NEXT).hasSize(2).anyMatch(n -> n.startsWith("nightly-report 20"));
        try (SqliteDriver driver = SqliteDriver.open(dir.resolve("jobs.db"))) {
            assertThat(driver.periodicList()).extracting(PeriodicRow::paused).containsExactly(false, true);
        }
        String source = Files.readString(Path.of("src/test/java/dev/runnel/sqlite/ReadmePeriodicExampleTest.java"));
        String start = "// --- guide periodic example start ---";
        String example = source.substring(source.indexOf(start) + start.length(),
                source.indexOf("    // --- guide periodic example end ---"));
        String guide = Files.readString(Path.of("../docs/guide/periodic-and-unique.md"));
        assertThat(squash(guide)).contains(squash(example));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
