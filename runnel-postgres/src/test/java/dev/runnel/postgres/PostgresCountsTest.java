package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobInsertParams;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fast counts on a table larger than the sample: completed jobs estimated from a sample of the
 * table's pages and marked so, every other state counted exactly.
 */
class PostgresCountsTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    void completedJobsOfALargeTableAreEstimatedTheRestCountedExactly() throws Exception {
        try (PostgresDriver driver = db.newDriver()) {
            new Migrator(driver).up();
            // 120,000 completed jobs with padded args, about 9,000 pages: four times the sample.
            try (Connection c = PostgresTestSchema.admin(); Statement st = c.createStatement()) {
                st.execute("INSERT INTO " + db.current() + ".runnel_job (kind, args, state, queue, created_at,"
                        + " scheduled_at, finalized_at) SELECT 'k', jsonb_build_object('pad', repeat('x', 400)),"
                        + " 'completed', CASE WHEN g % 4 = 0 THEN 'small' ELSE 'big' END, now(), now(), now()"
                        + " FROM generate_series(1, 120000) AS g");
                st.execute("ANALYZE " + db.current() + ".runnel_job");
            }
            driver.jobInsertMany(List.of(
                    new JobInsertParams("k", "{}", "big", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}"),
                    new JobInsertParams("k", "{}", "big", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}"),
                    new JobInsertParams("k", "{}", "small", 1, JobState.SCHEDULED, T0, T0.plusSeconds(60), 25,
                            List.of(), "{}"),
                    new JobInsertParams("k", "{}", "small", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}")));
            assertThat(driver.jobClaim(new JobClaimParams("small", 5, T0, "c"))).hasSize(1);

            List<JobCount> fast = driver.jobCountByQueueAndState(JobCountParams.FAST);
            Map<String, JobCount> byKey = fast.stream().collect(Collectors.toMap(c -> c.queue() + "/" + c.state().dbName(),
                    c -> c));
            assertThat(byKey).containsOnlyKeys("big/available", "big/completed", "small/scheduled", "small/running",
                    "small/completed");
            assertThat(byKey.get("small/running")).isEqualTo(new JobCount("small", JobState.RUNNING, 1, true));
            assertThat(byKey.get("big/available")).isEqualTo(new JobCount("big", JobState.AVAILABLE, 2, true));
            assertThat(byKey.get("small/scheduled")).isEqualTo(new JobCount("small", JobState.SCHEDULED, 1, true));
            JobCount big = byKey.get("big/completed");
            JobCount small = byKey.get("small/completed");
            assertThat(big.exact()).isFalse();
            assertThat(small.exact()).isFalse();
            assertThat((double) big.count()).isCloseTo(90_000, within(90_000 * 0.1));
            assertThat((double) small.count()).isCloseTo(30_000, within(30_000 * 0.1));

            assertThat(driver.jobCountByQueueAndState(JobCountParams.EXACT)).containsExactlyInAnyOrder(
                    new JobCount("big", JobState.AVAILABLE, 2), new JobCount("big", JobState.COMPLETED, 90_000),
                    new JobCount("small", JobState.SCHEDULED, 1), new JobCount("small", JobState.RUNNING, 1),
                    new JobCount("small", JobState.COMPLETED, 30_000));
        }
    }
}
