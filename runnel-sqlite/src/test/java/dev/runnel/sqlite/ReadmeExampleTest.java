package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.ErrorHandler;
import dev.runnel.InsertRequest;
import dev.runnel.InsertingJob;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The user's guide's hooks example (docs/guide/hooks.md), compiled and run; the test fails if the page's code drifts from it. */
class ReadmeExampleTest {
    static final List<String> OUTPUT = new CopyOnWriteArrayList<>();

    // --- guide hooks example start ---
    static final ScopedValue<String> TENANT = ScopedValue.newInstance();
    static final List<String> LOG = new CopyOnWriteArrayList<>();

    record Export(String report) implements JobArgs {
        @Override public String kind() { return "export"; }
    }

    static final class ExportWorker implements Worker<Export> {
        @Override public void work(Job<Export> job) {
            if (job.args().report().isBlank()) {
                throw new IllegalArgumentException("no report named");
            }
            // The work middleware bound the tenant of the code that inserted the job.
            job.recordOutput(Map.of("tenant", TENANT.get(), "url", "s3://exports/" + job.args().report()));
        }
    }

    static void hooksExample(Path file) throws Exception {
        try (Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(file))
                .autoMigrate(true)
                .queue("default", 10)
                .worker(Export.class, new ExportWorker())
                // Around every insert call, with its whole batch: carry the tenant in each job's metadata.
                .insertMiddleware((jobs, next) -> {
                    for (InsertingJob job : jobs) {
                        job.metadata().put("tenant", TENANT.get());
                    }
                    next.proceed();
                })
                // Around every worker call: bind the tenant again, and log how the attempt ended.
                .workMiddleware((job, next) -> {
                    String tenant = (String) job.metadata().get("tenant");
                    try {
                        ScopedValue.where(TENANT, tenant).call(() -> {
                            next.proceed();
                            return null;
                        });
                        LOG.add(job.kind() + " for " + tenant + " done");
                    } catch (Exception e) {
                        LOG.add(job.kind() + " for " + tenant + " failed: " + e.getMessage());
                        throw e;
                    }
                })
                // Every failure: bad input never gets better, so give up at once; the rest retry as usual.
                .errorHandler(failure -> failure.exception().orElse(null) instanceof IllegalArgumentException
                        ? ErrorHandler.Decision.discard("bad input")
                        : ErrorHandler.Decision.useDefault())
                .build()) {
            runnel.start();
            long march = ScopedValue.where(TENANT, "acme").call(() -> runnel.insertMany(List.of(
                    InsertRequest.of(new Export("march")), InsertRequest.of(new Export(" "))))).getFirst().id();

            // Waiting here only shows the output; anyone can read it later, as `runnel jobs get` does.
            while (runnel.jobGet(march).orElseThrow().state() != JobState.COMPLETED) {
                Thread.sleep(10);
            }
            OUTPUT.add(runnel.jobGet(march).orElseThrow().output().orElseThrow());
        }
    }
    // --- guide hooks example end ---

    @Test
    @Timeout(60)
    void hooksExampleRunsAndMatchesTheGuide(@TempDir Path dir) throws Exception {
        hooksExample(dir.resolve("jobs.db"));
        assertThat(OUTPUT).singleElement().satisfies(output -> assertThat(output)
                .contains("\"tenant\":\"acme\"").contains("\"url\":\"s3://exports/march\""));
        try (SqliteDriver driver = SqliteDriver.open(dir.resolve("jobs.db"))) {
            Await.until("the blank export discarded", Duration.ofSeconds(5), () ->
                    driver.jobList(JobQuery.inStates(JobState.DISCARDED)).size() == 1);
            JobRow discarded = driver.jobList(JobQuery.inStates(JobState.DISCARDED)).getFirst();
            assertThat(discarded.attempt()).isEqualTo(1);
            assertThat(discarded.metadata()).contains("\"tenant\":\"acme\"");
            assertThat(discarded.lastError().orElseThrow().message()).contains("no report named")
                    .contains("discarded by the error handler: bad input");
        }
        assertThat(LOG).containsExactlyInAnyOrder("export for acme done", "export for acme failed: no report named");
        assertInGuide("// --- guide hooks example start ---", "    // --- guide hooks example end ---");
    }

    /** Fails unless the guide's page holds this file's code between the two markers, whitespace aside. */
    private static void assertInGuide(String start, String end) throws Exception {
        String source = Files.readString(Path.of("src/test/java/dev/runnel/sqlite/ReadmeExampleTest.java"));
        String example = source.substring(source.indexOf(start) + start.length(), source.indexOf(end));
        String guide = Files.readString(Path.of("../docs/guide/hooks.md"));
        assertThat(squash(guide)).contains(squash(example));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
