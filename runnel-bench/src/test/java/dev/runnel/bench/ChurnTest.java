package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.testkit.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The churn harness end to end on the local Postgres, small: 30,000 jobs in three segments, the
 * cleaner deleting completed jobs as they finish. Fails, not skips, when Postgres cannot be reached.
 */
class ChurnTest {
    private static final long JOBS = 30_000;

    @Test
    void reportsEverySegmentAndTheCleanerKeepsTheTableSmall() throws Exception {
        StringWriter log = new StringWriter();
        ChurnResult result;
        try (BenchDatabase db = BenchDatabase.open(DrainTest.URL)) {
            result = new Churn(db.driver(), db.tableStats().orElseThrow(), new Churn.Options(JOBS, 10_000, 2_000,
                    Duration.ZERO, Duration.ofMillis(100), 200), new PrintWriter(log, true)).run();
            // Postgres counts a backend's deletes once that backend reports its statistics, up to
            // 10 s later: the cleaner's pool connection may not have when the run ends.
            Await.until("the rows the cleaner deleted to be counted", Duration.ofSeconds(20),
                    () -> db.tableStats().orElseThrow().read().deletedRows() > 0);
        }
        assertThat(result.segments()).hasSize(3);
        assertThat(result.segments()).extracting(ChurnSegment::index).containsExactly(1, 2, 3);
        assertThat(result.segments().getLast().completed()).isEqualTo(JOBS);
        for (ChurnSegment segment : result.segments()) {
            assertThat(segment.jobsPerSec()).isPositive();
            assertThat(segment.table().heapBytes()).isPositive();
            assertThat(segment.table().indexBytes()).containsKeys("runnel_job_pkey", "runnel_job_fetch",
                    "runnel_job_finalized");
            assertThat(segment.table().indexBytes().values()).allSatisfy(bytes -> assertThat(bytes).isPositive());
        }
        assertThat(result.ratio()).isPositive();
        assertThat(result.duplicates()).isZero();
        assertThat(result.missing()).isZero();
        assertThat(result.completed()).isEqualTo(JOBS);
        assertThat(result.exact()).isTrue();
        // The feeder never let the table hold everything: at most three batches waited at once, and
        // the cleaner deleted the completed jobs, so what remains is a fraction of N.
        assertThat(result.end().rows()).isLessThan(JOBS / 3);
        assertThat(log.toString()).contains(" seg ").contains("fetch MB").contains("audit: duplicates 0, missing 0");
        assertThat(result.toJson()).contains("\"segments\":[{\"segment\":1,").contains("\"exact\":true");
    }

    @Test
    void theDefaultSegmentIsAMillionOrATenth() {
        assertThat(Churn.Options.defaultSegment(10_000_000)).isEqualTo(1_000_000);
        assertThat(Churn.Options.defaultSegment(50_000_000)).isEqualTo(1_000_000);
        assertThat(Churn.Options.defaultSegment(300_000)).isEqualTo(30_000);
        assertThat(Churn.Options.defaultSegment(5)).isEqualTo(1);
    }
}
