package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.KeyLimit;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueRegisterParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.testkit.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job table's planner statistics kept in step with a table that grows from empty, so that the
 * plans Postgres keeps for the claim and the completion are made again for the table's new size;
 * and the plans made from them.
 */
class PostgresStatisticsTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    void theJobTableIsAnalyzedOnceItHasGrownToFourTimesThePagesItsStatisticsCounted() throws Exception {
        try (PostgresDriver d = db.newDriver()) {
            new Migrator(d).up();
            assertThat(d.jobStatisticsRefresh()).as("an empty table").isFalse();
            insert(d, 5_000);
            assertThat(relpages(db.current())).as("never analyzed").isZero();
            assertThat(d.jobStatisticsRefresh()).isTrue();
            long counted = relpages(db.current());
            assertThat(counted).isGreaterThan(32);
            assertThat(d.jobStatisticsRefresh()).as("no growth since").isFalse();
            insert(d, 5_000);
            assertThat(d.jobStatisticsRefresh()).as("twice the pages counted").isFalse();
            insert(d, 15_000);
            assertThat(d.jobStatisticsRefresh()).as("five times the pages counted").isTrue();
            assertThat(relpages(db.current())).isGreaterThan(4 * counted);
        }
    }

    @Test
    void theLeaderAnalyzesTheJobTableWithinSecondsOfItsGrowth() {
        String schema = db.create();
        try (Runnel inserter = Runnel.builder().driver(PostgresTestSchema.driver(schema)).autoMigrate(true).build();
                Runnel leader = Runnel.builder().driver(PostgresTestSchema.driver(schema))
                        .queue("work", 1).worker(DrainJob.class, new DrainWorker(Duration.ZERO)).build()) {
            leader.start();
            InsertOptions elsewhere = InsertOptions.builder().queue("elsewhere").build();
            inserter.insertMany(Collections.nCopies(5_000, new InsertRequest(new DrainJob(1), elsewhere)));
            Await.until("the leader to analyze the job table", Duration.ofSeconds(15), () -> relpages(schema) > 32);
        }
    }

    @Test
    void aBatchOfCompletionsPlannedFromStatisticsTakenWhileNoJobRanFindsEachJobByItsPrimaryKey() throws Exception {
        try (PostgresDriver d = db.newDriver()) {
            migratedAndAnalyzedWith(d, 5_000);
            try (Connection c = db.connection(); Statement st = c.createStatement()) {
                d.jobClaim(new JobClaimParams("q", 1_000, T0, "c"));
                // The plan Postgres keeps for a statement a connection runs often: a generic one.
                String complete = statement(JobSql.JobCompleteMany).text();
                StringBuilder numbered = new StringBuilder();
                int n = 0;
                for (char ch : complete.toCharArray()) {
                    numbered.append(ch == '?' ? "$" + ++n : String.valueOf(ch));
                }
                st.execute("PREPARE complete AS " + numbered);
                st.execute("SET plan_cache_mode = force_generic_plan");
                String plan;
                try (ResultSet rs = st.executeQuery("EXPLAIN EXECUTE complete('{1}', '{1}', '{1}', '{1}', 'c')")) {
                    plan = plan(rs);
                }
                assertThat(plan).contains("runnel_job_pkey").doesNotContain("runnel_job_running");
            }
        }
    }

    @Test
    void aClaimOnAnAnalyzedTableUpdatesTheJobsItLockedAtTheirCtid() throws Exception {
        try (PostgresDriver d = db.newDriver()) {
            migratedAndAnalyzedWith(d, 5_000);
            try (Connection c = db.connection()) {
                Sql claim = statement(JobSql.JobClaim);
                String plan;
                try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + claim.text())) {
                    bindClaim(claim, ps, 100);
                    try (ResultSet rs = ps.executeQuery()) {
                        plan = plan(rs);
                    }
                }
                assertThat(plan).contains("Tid Scan on runnel_job").doesNotContain("Seq Scan on runnel_job");
            }
            List<JobRow> claimed = d.jobClaim(new JobClaimParams("q", 100, T0, "c"));
            assertThat(claimed).hasSize(100).allSatisfy(row -> assertThat(row.state()).isEqualTo(JobState.RUNNING));
            assertThat(claimed.stream().map(JobRow::id).distinct()).hasSize(100);
        }
    }

    @Test
    void claimsFromABackloggedQueueAndCompletionsOfOneJobUseOnePlanMadeOncePerConnection() throws Exception {
        String schema = db.create();
        try (PostgresDriver d = PostgresDriver.builder().url(PostgresTestSchema.URL).schema(schema).maxPoolSize(1)
                .build()) {
            migratedAndAnalyzedWith(d, 50_000);
            for (int i = 0; i < 12; i++) {
                List<JobRow> claimed = d.jobClaim(new JobClaimParams("q", 10, T0, "c"));
                assertThat(claimed).hasSize(10);
                assertThat(d.jobCompleteMany(JobCompleteManyParams.of(claimed.subList(0, 1), T0))).hasSize(1);
            }
            // The plans of the pool's one connection, which ran every statement.
            assertThat(plans(d, "%FOR UPDATE SKIP LOCKED%")).as("the claim's generic and custom plans")
                    .satisfies(p -> assertThat(p[0]).isGreaterThanOrEqualTo(5), p -> assertThat(p[1]).isZero());
            assertThat(plans(d, "%SET state = 'completed'%")).as("the completion's generic and custom plans")
                    .satisfies(p -> assertThat(p[0]).isGreaterThanOrEqualTo(5), p -> assertThat(p[1]).isZero());
        }
    }

    @Test
    void keyedClaimsWhereTwoKeysHoldEveryJobUseOnePlanMadeOncePerConnection() throws Exception {
        String schema = db.create();
        try (PostgresDriver d = PostgresDriver.builder().url(PostgresTestSchema.URL).schema(schema).maxPoolSize(1)
                .build()) {
            new Migrator(d).up();
            d.queueRegister(new QueueRegisterParams(List.of("q"), T0));
            d.queueSetKeyLimit(new QueueKeyLimitParams("q", Optional.of(KeyLimit.byArgs("tenant", 2)), T0));
            List<JobInsertParams> jobs = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                jobs.add(new JobInsertParams("k", "{\"tenant\":\"t" + i % 2 + "\"}", "q", 1, JobState.AVAILABLE, T0, T0,
                        25, List.of(), "{}"));
            }
            d.jobInsertMany(jobs);
            analyze(d);
            for (int i = 0; i < 12; i++) {
                List<JobRow> claimed = d.jobClaim(new JobClaimParams("q", 10, T0, "c", false, true));
                assertThat(claimed).as("each key's two jobs").hasSize(4);
                d.jobCompleteMany(JobCompleteManyParams.of(claimed, T0));
            }
            // Left to choose, Postgres planned the keyed claim at every run: its generic plan guesses
            // that a key offers a tenth of its jobs, a cost it compares with the plan for the values.
            assertThat(plans(d, "%WITH RECURSIVE heads%")).as("the keyed claim's generic and custom plans")
                    .satisfies(p -> assertThat(p[0]).isGreaterThanOrEqualTo(5), p -> assertThat(p[1]).isZero());
        }
    }

    @Test
    void claimsAreNotCompiledByJitWhereEveryOtherPlanWouldBe() throws Exception {
        try (PostgresDriver d = db.newDriver()) {
            migratedAndAnalyzedWith(d, 1_000);
            d.queueRegister(new QueueRegisterParams(List.of("q"), T0));
            d.queueSetGlobalLimit(new QueueGlobalLimitParams("q", OptionalInt.of(100), T0));
            try (Connection c = db.connection(); Statement st = c.createStatement()) {
                // Every plan costs more than this, so each one is compiled unless JIT is turned off.
                st.execute("SET jit = on");
                st.execute("SET jit_above_cost = 0");
                Sql claim = statement(JobSql.JobClaim);
                Sql limited = statement(JobSql.JobClaimLimited);
                Sql lock = statement(JobSql.JobClaimLimitLock);
                Binder claimOf10 = ps -> bindClaim(claim, ps, 10);
                Binder limitedOf10 = ps -> {
                    limited.setInt(ps, JobSql.P.MAX, 10);
                    limited.setString(ps, JobSql.P.QUEUE, "q");
                    limited.setObject(ps, JobSql.P.NOW, T0.atOffset(ZoneOffset.UTC));
                    limited.setString(ps, JobSql.P.CLIENT_ID, "c");
                };
                assertThat(explained(c, null, claim, claimOf10)).as("a claim alone (Postgres built with llvmjit)")
                        .contains("JIT:");
                assertThat(explained(c, statement(JobSql.GenericPlan).text(), claim, claimOf10))
                        .as("the same claim after GenericPlan").doesNotContain("JIT:");
                assertThat(explained(c, null, limited, limitedOf10)).as("a claim under a global limit alone")
                        .contains("JIT:");
                String lockOfQ = lock.text().replace("?", "'q'");
                assertThat(explained(c, lockOfQ, limited, limitedOf10)).as("the same after the queue's lock")
                        .doesNotContain("JIT:");
            }
        }
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** EXPLAIN ANALYZE of {@code claim} on {@code c}, after {@code first} if any, in a transaction rolled back. */
    private static String explained(Connection c, String first, Sql claim, Binder binder) throws SQLException {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement();
                PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE) " + claim.text())) {
            if (first != null) {
                st.execute(first);
            }
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return plan(rs);
            }
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    /** Binds {@code claim} as the driver does: up to {@code max} jobs of queue "q" at T0, from the start. */
    private static void bindClaim(Sql claim, PreparedStatement ps, int max) throws SQLException {
        OffsetDateTime now = T0.atOffset(ZoneOffset.UTC);
        claim.setString(ps, JobSql.P.QUEUE, "q");
        claim.setObject(ps, JobSql.P.NOW, now);
        claim.setInt(ps, JobSql.P.FROM_PRIORITY, 0);
        claim.setObject(ps, JobSql.P.FROM_SCHEDULED_AT, now);
        claim.setLong(ps, JobSql.P.FROM_ID, 0);
        claim.setInt(ps, JobSql.P.MAX, max);
        claim.setString(ps, JobSql.P.CLIENT_ID, "c");
    }

    /** The generic and the custom plans made so far for the one statement prepared like {@code pattern}. */
    private static long[] plans(PostgresDriver d, String pattern) throws SQLException {
        try (Connection c = d.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                        + " WHERE statement LIKE ?")) {
            ps.setString(1, pattern);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("a statement prepared like " + pattern).isTrue();
                long[] plans = {rs.getLong(1), rs.getLong(2)};
                assertThat(rs.next()).as("one statement prepared like " + pattern).isFalse();
                return plans;
            }
        }
    }

    /** A statement of the driver's job.sql, in this test's schema. */
    private Sql statement(JobSql which) {
        return SqlFile.parse("job.sql", JobSql.class.getResourceAsStream("job.sql"), JobSql.class)
                .withSchema(db.current()).get(which);
    }

    /** The lines of an EXPLAIN's result. */
    private static String plan(ResultSet rs) throws SQLException {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
            plan.append(rs.getString(1)).append('\n');
        }
        return plan.toString();
    }

    /** Migrates {@code d}'s schema, inserts {@code n} available jobs and analyzes the job table. */
    private static void migratedAndAnalyzedWith(PostgresDriver d, int n) throws SQLException {
        new Migrator(d).up();
        insert(d, n);
        analyze(d);
    }

    /** Takes the planner statistics of {@code d}'s job table. */
    private static void analyze(PostgresDriver d) throws SQLException {
        try (Connection c = d.dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute("ANALYZE " + d.schema() + ".runnel_job");
        }
    }

    private static void insert(PostgresDriver d, int n) {
        List<JobInsertParams> jobs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            jobs.add(new JobInsertParams("k", "{}", "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}"));
        }
        d.jobInsertMany(jobs);
    }

    /** The job table's pages as its planner statistics last counted them (0: never counted). */
    private static long relpages(String schema) {
        try (Connection c = PostgresTestSchema.admin(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT relpages FROM pg_class WHERE oid = '" + schema
                        + ".runnel_job'::regclass")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
