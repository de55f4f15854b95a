package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The latency bench in miniature, on a real SQLite file in this JVM and on the local Postgres with
 * the client in a JVM of its own: its shape and exactly-once counts, not its timings. Fails, not
 * skips, when Postgres is missing.
 */
class LatencyTest {
    static final String URL = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test");

    private final Latency latency = new Latency(new Latency.Options(8, 50, 20, 10, Duration.ofSeconds(60)),
            new PrintWriter(new StringWriter(), true));

    @Test
    void sqliteInTheSameProcess() throws Exception {
        LatencyResult r = latency.runSqlite();
        check(r, "sqlite", "same");
        assertThat(r.toJson().toString()).contains("\"load_per_sec\":0.000", "\"p99_target_ms\":10.000",
                "\"max_target_ms\":50.000");
    }

    @Test
    void postgresInAnotherProcess() throws Exception {
        check(latency.runPostgres(URL), "postgres", "other");
    }

    private static void check(LatencyResult r, String driver, String process) {
        assertThat(r.driver()).isEqualTo(driver);
        assertThat(r.process()).isEqualTo(process);
        assertThat(r.jobs()).isEqualTo(8);
        assertThat(r.exact()).isTrue();
        assertThat(r.p50Ms()).isPositive().isLessThanOrEqualTo(r.p99Ms());
        assertThat(r.p99Ms()).isLessThanOrEqualTo(r.p999Ms());
        assertThat(r.p999Ms()).isLessThanOrEqualTo(r.maxMs());
        // Each job's completion is stored after it starts, so each figure is at least its start's.
        assertThat(r.storedP50Ms()).as("insert to stored completion, p50").isGreaterThanOrEqualTo(r.p50Ms());
        assertThat(r.storedP99Ms()).as("insert to stored completion, p99").isGreaterThanOrEqualTo(r.p99Ms())
                .isGreaterThanOrEqualTo(r.storedP50Ms());
        assertThat(r.firstJobMs()).isPositive();
        assertThat(r.coldFirstJobMs()).isPositive();
        assertThat(Latency.toJsonLines(List.of(r), Map.of())).singleElement().asString()
                .startsWith("{\"bench\":\"latency\"")
                .contains("\"driver\":\"" + driver + "\"", "\"p50_ms\":", "\"p99_ms\":", "\"p999_ms\":", "\"max_ms\":",
                        "\"stored_p50_ms\":", "\"stored_p99_ms\":",
                        "\"exact\":true");
    }

    @Test
    void underABackgroundLoadOnlyTheMeasuredJobsAreCountedAndEachOnce() throws Exception {
        Latency loaded = new Latency(new Latency.Options(8, 50, 20, 10, 500, Duration.ofSeconds(60)),
                new PrintWriter(new StringWriter(), true));
        LatencyResult r = loaded.runSqlite();
        check(r, "sqlite", "same");
        assertThat(r.loadPerSec()).isEqualTo(500);
        assertThat(r.p99TargetMs()).isEqualTo(LatencyResult.P99_UNDER_LOAD_TARGET_MS);
        assertThat(r.toJson().toString()).contains("\"load_per_sec\":500.000", "\"p99_target_ms\":20.000",
                "\"max_target_ms\":null");
    }

    @Test
    void aDriverThatCouldNotBeMeasuredHasALineSayingWhyAndNoFigures() {
        assertThat(Latency.toJsonLines(List.of(), Map.of("postgres", "cannot be reached: refused")))
                .containsExactly("{\"bench\":\"latency\",\"driver\":\"postgres\",\"not_run\":\"cannot be reached: refused\"}");
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = new long[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = i + 1;
        }
        assertThat(LatencyResult.percentile(sorted, 50)).isEqualTo(50);
        assertThat(LatencyResult.percentile(sorted, 99)).isEqualTo(99);
        assertThat(LatencyResult.percentile(sorted, 99.9)).isEqualTo(100);
        assertThat(LatencyResult.percentile(new long[] {7}, 99)).isEqualTo(7);
        assertThat(LatencyResult.percentile(new long[0], 50)).isZero();
    }
}
