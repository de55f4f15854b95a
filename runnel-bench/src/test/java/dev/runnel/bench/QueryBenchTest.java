package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.postgres.PostgresDriver;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The query harness end to end on the local Postgres, small: 20,000 jobs loaded, every listing
 * and count timed twice, the schema dropped. Fails, not skips, when Postgres cannot be reached.
 */
class QueryBenchTest {
    @Test
    void loadsTimesEveryQueryAndDropsItsSchema() {
        StringWriter log = new StringWriter();
        String schema = "qb_test_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        QueryBenchResult result = new QueryBench(DrainTest.URL, new QueryBench.Options(20_000, 2, schema, false, false,
                true), new PrintWriter(log, true)).run();
        assertThat(result.jobs()).isEqualTo(20_000);
        assertThat(result.timings()).extracting(QueryBench.Timing::name).contains("first page", "state running",
                "kind rare_kind (1 in 10,000)", "args customer_id 42 (1 in 100,000)", "created in an hour at noon",
                "counts by queue and state (fast)", "counts by queue and state (exact)");
        assertThat(result.timings()).allSatisfy(t -> assertThat(t.medianMs()).isPositive());
        // The load's shape: pages fill, the rare kind and the running jobs exist, nothing estimated in a small table.
        assertThat(row(result, "first page")).isEqualTo(100);
        assertThat(row(result, "state running")).isEqualTo(100);
        assertThat(row(result, "kind rare_kind (1 in 10,000)")).isEqualTo(2);
        assertThat(row(result, "state completed")).isEqualTo(100);
        assertThat(result.worstEstimateError()).isZero();
        assertThat(log.toString()).contains("search indexes (kind, args) created").contains("loaded, vacuumed");
        assertThat(result.toJson()).startsWith("{\"jobs\":20000,").contains("\"name\":\"state available\"");
        try (PostgresDriver pg = PostgresDriver.fromUrl(DrainTest.URL);
                java.sql.Connection c = pg.dataSource().getConnection();
                java.sql.ResultSet rs = c.createStatement().executeQuery(
                        "SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'")) {
            rs.next();
            assertThat(rs.getLong(1)).as("the harness's schema, dropped").isZero();
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static int row(QueryBenchResult result, String name) {
        return result.timings().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().rows();
    }
}
