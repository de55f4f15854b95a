package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's example, compiled and run; the test fails if the README's code drifts from it. */
class ReadmeExampleTest {
    static final List<String> SENT = new CopyOnWriteArrayList<>();

    // --- README example start ---
    record SendReceipt(long orderId, String email) implements JobArgs {
        @Override public String kind() { return "send_receipt"; }
    }

    static final class SendReceiptWorker implements Worker<SendReceipt> {
        @Override public void work(Job<SendReceipt> job) {
            SENT.add(job.args().email()); // send the mail here; throw to retry with backoff
        }
    }

    static void example(Path file) throws Exception {
        try (Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(file))
                .autoMigrate(true)
                .queue("default", 100)
                .worker(SendReceipt.class, new SendReceiptWorker())
                .build()) {
            runnel.start();
            runnel.insert(new SendReceipt(42, "a@example.com"), InsertOptions.builder().priority(2).build());

            // Enqueue inside your own transaction: the job exists only if you commit.
            try (Connection tx = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                tx.setAutoCommit(false);
                runnel.insert(tx, new SendReceipt(43, "b@example.com"));
                tx.commit();
            }
            Thread.sleep(2_000);
        }
    }
    // --- README example end ---

    @Test
    void exampleRunsAndMatchesTheReadme(@TempDir Path dir) throws Exception {
        example(dir.resolve("jobs.db"));
        assertThat(SENT).contains("a@example.com", "b@example.com");
        try (SqliteDriver driver = SqliteDriver.open(dir.resolve("jobs.db"))) {
            assertThat(new Migrator(driver).currentVersion()).isEqualTo(new Migrator(driver).latestVersion());
            Await.until("both completed", Duration.ofSeconds(5), () ->
                    driver.jobList(JobQuery.inStates(JobState.COMPLETED)).size() == 2);
        }
        String source = Files.readString(Path.of("src/test/java/dev/runnel/sqlite/ReadmeExampleTest.java"));
        String example = source.substring(source.indexOf("// --- README example start ---") + 31,
                source.indexOf("    // --- README example end ---"));
        String readme = Files.readString(Path.of("../README.md"));
        assertThat(squash(readme)).contains(squash(example));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
