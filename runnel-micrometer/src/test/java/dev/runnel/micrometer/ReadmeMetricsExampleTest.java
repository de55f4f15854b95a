package dev.runnel.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.testkit.Await;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's guide's metrics example (docs/guide/observability.md), run; the test fails if the page's code drifts from it. */
class ReadmeMetricsExampleTest {
    // --- guide metrics example start ---
    record Ping(String target) implements JobArgs {
        @Override public String kind() { return "ping"; }
    }

    static void metricsExample(Path file, MeterRegistry registry) throws Exception {
        RunnelMetrics metrics = new RunnelMetrics(registry);
        try (Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(file))
                .autoMigrate(true)
                .queue("default", 10)
                .worker(Ping.class, job -> {})
                .listener(metrics)        // outcomes, run and wait times
                .runtimeListener(metrics) // claims, outcome writes, and the leader's queue depths
                .jobCountInterval(Duration.ofSeconds(15))
                .build()) {
            runnel.start();
            long id = runnel.insert(new Ping("db")).id();
            while (runnel.jobGet(id).orElseThrow().state() != JobState.COMPLETED) {
                Thread.sleep(10);
            }
        }
    }
    // --- guide metrics example end ---

    @Test
    void metricsExampleRunsAndMatchesTheGuide(@TempDir Path dir) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        metricsExample(dir.resolve("jobs.db"), registry);
        // Stopping the client flushed and published every outcome.
        Await.until("the completed job counted", () -> registry.find(RunnelMetrics.OUTCOMES)
                .tags("queue", "default", "kind", "ping", "outcome", "completed").counter() != null);
        assertThat(registry.get(RunnelMetrics.CLAIM_SIZE).summary().totalAmount()).isEqualTo(1);
        String start = "// --- guide metrics example start ---";
        String source = Files.readString(Path.of("src/test/java/dev/runnel/micrometer/ReadmeMetricsExampleTest.java"));
        String example = source.substring(source.indexOf(start) + start.length(),
                source.indexOf("    // --- guide metrics example end ---"));
        assertThat(squash(Files.readString(Path.of("../docs/guide/observability.md")))).contains(squash(example));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
