package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Runnel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The jobs table in miniature: every workload, a handful of jobs each, in both delivery modes, on
 * real SQLite files, the local HTTP server JVM and the local Postgres. Asserts the table's shape and
 * that every job completed exactly once, not its timings. Fails, not skips, when Postgres is missing.
 */
class JobsTableTest {
    static final String URL = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test");
    static final List<Runnel.Delivery> BOTH = List.of(Runnel.Delivery.AT_LEAST_ONCE, Runnel.Delivery.AT_MOST_ONCE);

    @Test
    void everyWorkloadCompletesEachJobExactlyOnceInBothModes() throws Exception {
        List<JobsTable.Plan> plans = List.of(
                new JobsTable.Plan(TableWorkload.NOOP, 10, 300),
                new JobsTable.Plan(TableWorkload.HTTP, 5, 10),
                new JobsTable.Plan(TableWorkload.PG_SLEEP, 3, 6),
                new JobsTable.Plan(TableWorkload.FILE, 4, 200),
                new JobsTable.Plan(TableWorkload.CPU, 2, 6),
                new JobsTable.Plan(TableWorkload.IDLE, 10, 0));
        StringWriter log = new StringWriter();
        List<TableRow> rows = new JobsTable(new JobsTable.Options(Optional.empty(), URL, Duration.ofMillis(300), plans,
                BOTH, Duration.ofMinutes(1), 200, false), new PrintWriter(log, true)).run();

        assertThat(rows).hasSize(plans.size() * 2);
        for (TableRow row : rows) {
            assertThat(row.error()).as(row.describe()).isEmpty();
            assertThat(row.completed()).as(row.describe()).isEqualTo(row.jobs());
            assertThat(row.duplicates()).isZero();
            assertThat(row.missing()).isZero();
            assertThat(row.exact()).isTrue();
            assertThat(row.startRssKb()).isPositive();
            assertThat(row.finishRssKb()).isPositive();
            assertThat(row.seconds()).isPositive();
        }
        // Each IO-bound row knows its physical limit; idle, no-op and file rows have a target.
        TableRow http = rows.get(2);
        assertThat(http.workload()).isEqualTo(TableWorkload.HTTP);
        assertThat(http.limitSeconds()).contains(10 * 0.2 / 5);
        assertThat(http.target()).isPresent();
        assertThat(rows.getLast().workload()).isEqualTo(TableWorkload.IDLE);
        assertThat(rows.getLast().target()).contains("cpu <= 0.5%");
        assertThat(rows.getFirst().mode()).isEqualTo(Runnel.Delivery.AT_LEAST_ONCE);
        assertThat(rows.get(1).mode()).isEqualTo(Runnel.Delivery.AT_MOST_ONCE);

        String json = JobsTable.toJson(rows, "sqlite", Duration.ofMillis(300), 200, false);
        assertThat(json).startsWith("{\"scenario\":\"jobs-table\"").contains("\"exact\":true", "\"rows_not_run\":0",
                "\"workload\":\"pg_sleep\"", "\"mode\":\"at_most_once\"", "\"limit_seconds\":0.400",
                "\"warmup_jobs\":200", "\"delete_completed\":false").doesNotContain("\n");
        // The warm-up's line, then a line per row.
        assertThat(log.toString().lines().findFirst().orElseThrow()).startsWith("warm-up: 200 no-op jobs at 10 slots");
        assertThat(log.toString().lines()).hasSize(rows.size() + 1);
    }

    @Test
    void anUnreachablePostgresMarksItsRowsAndTheRestRun() throws Exception {
        List<JobsTable.Plan> plans = List.of(new JobsTable.Plan(TableWorkload.PG_SLEEP, 2, 4),
                new JobsTable.Plan(TableWorkload.NOOP, 2, 20));
        List<TableRow> rows = new JobsTable(new JobsTable.Options(Optional.empty(), "postgres://postgres@127.0.0.1:1/test",
                Duration.ofMillis(100), plans, List.of(Runnel.Delivery.AT_LEAST_ONCE), Duration.ofMinutes(1), 0, false),
                new PrintWriter(new StringWriter(), true)).run();

        assertThat(rows.getFirst().error()).hasValueSatisfying(e -> assertThat(e).contains("127.0.0.1:1"));
        assertThat(rows.getFirst().describe()).contains("NOT RUN");
        assertThat(rows.get(1).error()).isEmpty();
        assertThat(rows.get(1).completed()).isEqualTo(20);
        assertThat(JobsTable.toJson(rows, "sqlite", Duration.ofMillis(100), 0, false)).contains("\"rows_not_run\":1");
    }

    @Test
    void aPostgresJobStoreGetsAFreshSchemaPerRow() throws Exception {
        List<TableRow> rows = new JobsTable(new JobsTable.Options(Optional.of(URL), URL, Duration.ofMillis(100),
                List.of(new JobsTable.Plan(TableWorkload.NOOP, 5, 100)), BOTH, Duration.ofMinutes(1), 0, false),
                new PrintWriter(new StringWriter(), true)).run();
        assertThat(rows).hasSize(2).allSatisfy(r -> {
            assertThat(r.error()).isEmpty();
            assertThat(r.completed()).isEqualTo(100);
            assertThat(r.exact()).isTrue();
        });
    }

    @Test
    void rowsThatKeepNoCompletedJobsLeaveNoneBehindAndSaySo() throws Exception {
        List<TableRow> rows = new JobsTable(new JobsTable.Options(Optional.of(URL), URL, Duration.ofMillis(100),
                List.of(new JobsTable.Plan(TableWorkload.NOOP, 5, 500), new JobsTable.Plan(TableWorkload.FILE, 4, 200)),
                BOTH, Duration.ofMinutes(1), 0, true), new PrintWriter(new StringWriter(), true)).run();
        // Each row counts its queue's completed jobs after its client stops, and fails if any was kept.
        assertThat(rows).hasSize(4).allSatisfy(r -> {
            assertThat(r.error()).as(r.describe()).isEmpty();
            assertThat(r.completed()).isEqualTo(r.jobs());
            assertThat(r.exact()).isTrue();
        });
        assertThat(JobsTable.toJson(rows, "postgres", Duration.ofMillis(100), 0, true)).contains("\"delete_completed\":true");
    }

    @Test
    void theDefaultPlanHasEveryWorkloadsRows() {
        List<JobsTable.Plan> plans = JobsTable.seedPlans();
        assertThat(plans).hasSize(15);
        assertThat(plans).contains(new JobsTable.Plan(TableWorkload.NOOP, 50, 100_000),
                new JobsTable.Plan(TableWorkload.HTTP, 100, 1_000), new JobsTable.Plan(TableWorkload.FILE, 10, 50_000),
                new JobsTable.Plan(TableWorkload.IDLE, 100, 0));
        assertThat(TableWorkload.NOOP.seedFigure(10, Runnel.Delivery.AT_MOST_ONCE)).contains(14.17);
        assertThat(TableWorkload.PG_SLEEP.limitSeconds(1_000, 10)).contains(10.0);
        assertThat(TableWork.fib(TableWork.FIB_N)).isEqualTo(121_393);
    }
}
