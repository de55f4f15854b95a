package dev.runnel.postgres;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Drivers;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobGetManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.driver.MigrationApplyParams;
import dev.runnel.driver.Times;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

/** The builder's validation, connection failures, and what only Postgres can get wrong. */
class PostgresDriverTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    void builderNeedsExactlyOneSource() {
        assertThatThrownBy(() -> PostgresDriver.builder().build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("url").hasMessageContaining("dataSource");
        assertThatThrownBy(() -> PostgresDriver.builder().url("postgres://u@h/d").dataSource(new PGSimpleDataSource())
                .build()).hasMessageContaining("exactly one");
    }

    @Test
    void builderRejectsBadValuesNamingTheOption() {
        assertThatThrownBy(() -> PostgresDriver.builder().schema("bad-schema"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("schema ");
        assertThatThrownBy(() -> PostgresDriver.builder().schema("x".repeat(64))).hasMessageStartingWith("schema ");
        assertThatThrownBy(() -> PostgresDriver.builder().maxPoolSize(0)).hasMessageStartingWith("maxPoolSize ");
        assertThatThrownBy(() -> PostgresDriver.builder().maxPoolSize(PostgresDriver.MAX_POOL_SIZE + 1))
                .hasMessageStartingWith("maxPoolSize ");
        assertThatThrownBy(() -> PostgresDriver.builder().connectTimeout(Duration.ofMillis(100)))
                .hasMessageStartingWith("connectTimeout ");
        assertThatThrownBy(() -> PostgresDriver.builder().socketTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("socketTimeout ");
        assertThatThrownBy(() -> PostgresDriver.builder().socketTimeout(Duration.ofMillis(500)))
                .hasMessageStartingWith("socketTimeout ").hasMessageContaining("500 ms");
        assertThatThrownBy(() -> PostgresDriver.builder().socketTimeout(PostgresDriver.MAX_SOCKET_TIMEOUT.plusSeconds(1)))
                .hasMessageStartingWith("socketTimeout ");
        assertThatThrownBy(() -> PostgresDriver.builder().socketTimeout(null)).hasMessageContaining("socketTimeout");
        // An application's pool keeps its own settings: asking the driver to change them is a mistake.
        assertThatThrownBy(() -> PostgresDriver.builder().dataSource(new PGSimpleDataSource())
                .socketTimeout(Duration.ofSeconds(5)).build()).hasMessageStartingWith("socketTimeout ");
        assertThatThrownBy(() -> PostgresDriver.builder().dataSource(new PGSimpleDataSource()).tcpKeepAlive(false)
                .build()).hasMessageStartingWith("tcpKeepAlive ");
    }

    @Test
    void schemaComesFromTheBuilderThenTheUrlThenTheDefault() {
        try (PostgresDriver d = PostgresDriver.fromUrl("postgres://u@h/d")) {
            assertThat(d.schema()).isEqualTo("public");
        }
        try (PostgresDriver d = PostgresDriver.fromUrl("postgres://u@h/d?schema=FromUrl")) {
            assertThat(d.schema()).isEqualTo("fromurl");
        }
        try (PostgresDriver d = PostgresDriver.builder().url("postgres://u@h/d?schema=from_url").schema("given").build()) {
            assertThat(d.schema()).isEqualTo("given");
        }
    }

    @Test
    void toStringNamesTheDatabaseButNotThePassword() {
        try (PostgresDriver d = PostgresDriver.fromUrl("postgres://u:hunter2@db:5433/app?schema=jobs")) {
            assertThat(d.toString()).isEqualTo("PostgresDriver[db:5433/app, schema jobs]");
            assertThat(d.name()).isEqualTo("postgres");
            assertThat(d.supportsListenNotify()).isTrue();
        }
    }

    @Test
    void closedDriverRefusesWork() {
        PostgresDriver d = db.newDriver();
        d.close();
        d.close();
        assertThatThrownBy(d::migrationApplied).isInstanceOf(RunnelException.class).hasMessageContaining("closed");
    }

    @Test
    void driversOpensPostgresUrlsThroughTheServiceLoader() {
        String schema = db.create();
        for (String scheme : new String[] {"postgres", "postgresql"}) {
            String url = scheme + PostgresTestSchema.URL.substring(PostgresTestSchema.URL.indexOf("://"))
                    + (PostgresTestSchema.URL.contains("?") ? "&" : "?") + "schema=" + schema;
            try (Driver d = Drivers.open(url)) {
                assertThat(d).isInstanceOf(PostgresDriver.class);
                assertThat(((PostgresDriver) d).schema()).isEqualTo(schema);
            }
        }
    }

    @Test
    void migratingCreatesAMissingSchemaAndTheMigrationTable() throws Exception {
        String schema = db.create();
        try (Connection c = PostgresTestSchema.admin(); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA " + schema);
        }
        try (PostgresDriver d = PostgresTestSchema.driver(schema)) {
            assertThat(d.migrationApplied()).isEmpty();
            Migrator migrator = new Migrator(d);
            assertThat(migrator.up()).isEqualTo(allVersions(migrator));
            assertThat(d.migrationApplied()).hasSize(migrator.latestVersion()).first().satisfies(r -> {
                assertThat(r.name()).isEqualTo("001_create_jobs");
                assertThat(r.appliedAt()).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));
            });
            // Already applied: nothing to do, and said so.
            assertThat(d.migrationApply(new MigrationApplyParams(d.migrations().getFirst(), true))).isFalse();
            assertThat(migrator.sql(true)).contains("\"" + schema + "\".runnel_job");
        }
    }

    @Test
    void concurrentMigratorsApplyEachMigrationOnce() throws Exception {
        String schema = db.create();
        try (Connection c = PostgresTestSchema.admin(); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA " + schema);
        }
        try (PostgresDriver a = PostgresTestSchema.driver(schema); PostgresDriver b = PostgresTestSchema.driver(schema);
                var executor = Executors.newFixedThreadPool(2)) {
            CyclicBarrier start = new CyclicBarrier(2);
            Callable<List<Integer>> upA = () -> {
                start.await();
                return new Migrator(a).up();
            };
            Callable<List<Integer>> upB = () -> {
                start.await();
                return new Migrator(b).up();
            };
            Future<List<Integer>> first = executor.submit(upA);
            Future<List<Integer>> second = executor.submit(upB);
            List<Integer> applied = new ArrayList<>(first.get(30, TimeUnit.SECONDS));
            applied.addAll(second.get(30, TimeUnit.SECONDS));
            assertThat(applied).containsExactlyInAnyOrderElementsOf(allVersions(new Migrator(a)));
            assertThat(a.migrationApplied()).hasSize(new Migrator(a).latestVersion());
        }
    }

    @Test
    void timesKeepExactlyTheirMicroseconds() {
        try (PostgresDriver d = db.newDriver()) {
            new Migrator(d).up();
            Instant scheduled = T0.plusNanos(123_456_789);
            long id = d.jobInsertMany(List.of(new JobInsertParams("k", "{}", "q", 1, JobState.AVAILABLE, scheduled,
                    scheduled, 25, List.of(), "{}"))).getFirst().id();
            JobRow row = d.jobGet(id).orElseThrow();
            assertThat(row.createdAt()).isEqualTo(Times.truncate(scheduled)).isEqualTo(T0.plusNanos(123_456_000));
            assertThat(row.scheduledAt()).isEqualTo(Times.truncate(scheduled));

            Instant claimedAt = T0.plusSeconds(1).plusNanos(999_999_999);
            List<JobRow> claimed = d.jobClaim(new JobClaimParams("q", 10, claimedAt, "c"));
            assertThat(claimed).singleElement()
                    .satisfies(j -> assertThat(j.attemptedAt()).contains(Times.truncate(claimedAt)));
            long finalized = Times.toMicros(T0) + 987_654_321L;
            JobCompleteManyParams one = JobCompleteManyParams.of(claimed, T0);
            // Only the first entry of longer arrays counts.
            assertThat(d.jobCompleteMany(new JobCompleteManyParams(new long[] {id, 0}, new long[] {finalized, 0},
                    new int[] {1, 0}, new long[] {one.attemptedAtMicros()[0], 0}, 1, "c"))).containsExactly(id);
            assertThat(d.jobGet(id).orElseThrow().finalizedAt()).contains(Times.fromMicros(finalized));
        }
    }

    @Test
    void aClaimAndACompletionKeepEachJobsNewRowVersionOnItsOwnPage() throws Exception {
        try (PostgresDriver d = db.newDriver()) {
            new Migrator(d).up();
            List<JobInsertParams> jobs = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                jobs.add(new JobInsertParams("k", "{\"n\":" + i + "}", "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of(),
                        "{}"));
            }
            d.jobInsertMany(jobs);
            String client = "runnel-worker-host-4242-0123456789abcdef";
            Map<Long, Long> inserted = pages(db);
            Map<Long, Long> claimed = new HashMap<>();
            Map<Long, Long> completed = new HashMap<>();
            for (int batch = 0; batch < 6; batch++) {
                List<JobRow> rows = d.jobClaim(new JobClaimParams("q", 100, T0.plusMillis(batch), client));
                assertThat(rows).hasSize(100);
                Map<Long, Long> now = pages(db);
                rows.forEach(j -> claimed.put(j.id(), now.get(j.id())));
                d.jobCompleteMany(JobCompleteManyParams.of(rows, T0.plusSeconds(1)));
                Map<Long, Long> later = pages(db);
                rows.forEach(j -> completed.put(j.id(), later.get(j.id())));
            }
            // With a tenth of each page left free, 501 claimed and 430 completed versions of the 600
            // went to another page; with half, 126 and 57 (a claimed version is longer by its client).
            assertThat(moved(inserted, claimed)).as("claimed versions moved off their page").isLessThan(200);
            assertThat(moved(claimed, completed)).as("completed versions moved off their page").isLessThan(150);
        }
    }

    /** Each job's heap page now. */
    private static Map<Long, Long> pages(PostgresTestSchema db) throws Exception {
        try (Connection c = db.connection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, (ctid::text::point)[0]::bigint FROM runnel_job")) {
            Map<Long, Long> pages = new HashMap<>();
            while (rs.next()) {
                pages.put(rs.getLong(1), rs.getLong(2));
            }
            return pages;
        }
    }

    private static long moved(Map<Long, Long> before, Map<Long, Long> after) {
        return before.keySet().stream().filter(id -> !before.get(id).equals(after.get(id))).count();
    }

    @Test
    void inABacklogClaimsGoOnFromTheLastFullClaimWhateverTheClientsClockSays() {
        try (PostgresDriver d = db.newDriver()) {
            new Migrator(d).up();
            JobInsertParams low = new JobInsertParams("k", "{}", "q", 2, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}");
            long[] backlog = InsertResult.ids(d.jobInsertMany(List.of(low, low, low, low, low, low)));
            assertThat(d.jobClaim(new JobClaimParams("q", 2, T0, "c"))).extracting(JobRow::id)
                    .containsExactly(backlog[0], backlog[1]);
            long urgent = d.jobInsertMany(List.of(new JobInsertParams("k", "{}", "q", 1, JobState.AVAILABLE, T0, T0, 25,
                    List.of(), "{}"))).getFirst().id();
            // The backlog goes on from where the last full claim ended, so the urgent job waits; the
            // position's second is real time, so the client's clock jumping a day changes nothing...
            assertThat(d.jobClaim(new JobClaimParams("q", 2, T0.plus(Duration.ofDays(1)), "c"))).extracting(JobRow::id)
                    .containsExactly(backlog[2], backlog[3]);
            // ...nor going back.
            assertThat(d.jobClaim(new JobClaimParams("q", 1, T0.plusMillis(1), "c"))).extracting(JobRow::id)
                    .containsExactly(backlog[4]);
            // A claim that does not fill up from ahead of the position takes jobs behind it in the
            // same statement, in claim order.
            assertThat(d.jobClaim(new JobClaimParams("q", 3, T0.plusMillis(2), "c"))).extracting(JobRow::id)
                    .containsExactly(urgent, backlog[5]);
            assertThat(d.jobClaim(new JobClaimParams("q", 2, T0.plusMillis(3), "c"))).isEmpty();
        }
    }

    @Test
    void theClaimPositionIsDroppedASecondOfRealTimeAfterItsRunBegan() {
        long[] now = {0};
        ClaimCursor cursor = new ClaimCursor(() -> now[0]);
        JobRow a = row(1, 2, T0);
        JobRow b = row(2, 2, T0);
        JobRow c = row(3, 2, T0);
        cursor.claimed("q", ClaimCursor.START, List.of(a, b), 2);
        assertThat(cursor.from("q").id()).isEqualTo(2);
        now[0] = Duration.ofMillis(999).toNanos();
        ClaimCursor.Position from = cursor.from("q");
        cursor.claimed("q", from, List.of(c), 1);
        assertThat(cursor.from("q").id()).isEqualTo(3);
        now[0] = Duration.ofSeconds(1).toNanos();
        assertThat(cursor.from("q")).isSameAs(ClaimCursor.START);
        // A full claim that took a job from behind the position does not move it on: it drops it.
        cursor.claimed("q", ClaimCursor.START, List.of(b, c), 2);
        cursor.claimed("q", cursor.from("q"), List.of(a, c), 2);
        assertThat(cursor.from("q")).isSameAs(ClaimCursor.START);
    }

    @Test
    void cleanerDeletesGoOnFromTheNewestFinalizedTimeTheLastOneReached() {
        try (PostgresDriver d = db.newDriver()) {
            new Migrator(d).up();
            long[] first = completed(d, T0.plusSeconds(1), T0.plusSeconds(2), T0.plusSeconds(3));
            d.leaderAttemptElect(new LeaderElectParams("leader", T0, T0.plusSeconds(3600)));
            Lease lease = new Lease("leader", T0.plusSeconds(100));
            assertThat(d.jobDeleteFinalized(new JobDeleteFinalizedParams(lease, JobState.COMPLETED, T0.plusSeconds(10), 2)))
                    .isEqualTo(2);
            assertThat(d.jobDeleteFinalized(new JobDeleteFinalizedParams(lease, JobState.COMPLETED, T0.plusSeconds(10), 2)))
                    .isEqualTo(1);
            assertThat(d.jobGetMany(new JobGetManyParams(first))).isEmpty();
            // A job finalized behind the position (its completion written late) waits for the sweep,
            // within a minute; one finalized after it goes at once.
            long late = completed(d, T0.plusSeconds(2))[0];
            long next = completed(d, T0.plusSeconds(5))[0];
            assertThat(d.jobDeleteFinalized(new JobDeleteFinalizedParams(lease, JobState.COMPLETED, T0.plusSeconds(10), 10)))
                    .isEqualTo(1);
            assertThat(d.jobGet(next)).isEmpty();
            assertThat(d.jobGet(late)).isPresent();
        }
    }

    /** Inserts, claims and completes one job per finalized time; returns their ids. */
    private static long[] completed(PostgresDriver d, Instant... finalizedAt) {
        long[] ids = new long[finalizedAt.length];
        for (int i = 0; i < finalizedAt.length; i++) {
            ids[i] = d.jobInsertMany(List.of(new JobInsertParams("k", "{}", "done", 1, JobState.AVAILABLE, T0, T0, 25,
                    List.of(), "{}"))).getFirst().id();
            List<JobRow> claimed = d.jobClaim(new JobClaimParams("done", 1, T0, "c"));
            d.jobCompleteMany(JobCompleteManyParams.of(claimed, finalizedAt[i]));
        }
        return ids;
    }

    @Test
    void theCleanerSweepsFromTheOldestOnceAMinuteOfRealTime() {
        long[] now = {0};
        CleanCursor cursor = new CleanCursor(() -> now[0]);
        assertThat(cursor.from(JobState.COMPLETED)).isEmpty();
        cursor.deleted(JobState.COMPLETED, Optional.empty(), Optional.of(T0));
        assertThat(cursor.from(JobState.COMPLETED)).contains(T0);
        assertThat(cursor.from(JobState.DISCARDED)).isEmpty();
        now[0] = Duration.ofSeconds(59).toNanos();
        cursor.deleted(JobState.COMPLETED, Optional.of(T0), Optional.of(T0.plusSeconds(5)));
        // A delete that found nothing leaves the position where it was.
        cursor.deleted(JobState.COMPLETED, Optional.of(T0.plusSeconds(5)), Optional.empty());
        assertThat(cursor.from(JobState.COMPLETED)).contains(T0.plusSeconds(5));
        now[0] = Duration.ofSeconds(60).toNanos();
        assertThat(cursor.from(JobState.COMPLETED)).isEmpty();
        // The sweep's deletes walk forward from the oldest; the next sweep is a minute after this one began.
        cursor.deleted(JobState.COMPLETED, Optional.empty(), Optional.of(T0.plusSeconds(1)));
        now[0] = Duration.ofSeconds(119).toNanos();
        assertThat(cursor.from(JobState.COMPLETED)).contains(T0.plusSeconds(1));
        now[0] = Duration.ofSeconds(120).toNanos();
        assertThat(cursor.from(JobState.COMPLETED)).isEmpty();
    }

    private static JobRow row(long id, int priority, Instant scheduledAt) {
        return new JobRow(id, "k", "{}", JobState.RUNNING, "q", priority, 1, 25, Optional.of(T0), List.of("c"),
                T0, scheduledAt, Optional.empty(), List.of(), "{}", List.of());
    }

    @Test
    void setStateManyWritesEachRowsOwnValuesInOneBatch() {
        try (PostgresDriver d = db.newDriver()) {
            new Migrator(d).up();
            JobInsertParams job = new JobInsertParams("k", "{}", "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}");
            long[] ids = InsertResult.ids(d.jobInsertMany(List.of(job, job, job)));
            Map<Long, JobRow> claimed = d.jobClaim(new JobClaimParams("q", 10, T0, "c")).stream()
                    .collect(Collectors.toMap(JobRow::id, j -> j));
            Instant later = T0.plusNanos(1_001_000);
            assertThat(d.jobSetStateMany(List.of(
                    JobSetStateParams.of(claimed.get(ids[0]), JobState.CANCELLED, null, later, "{\"attempt\":1,\"at\":\""
                            + T0 + "\",\"error\":\"it's \\\"quoted\\\", {braced}\",\"trace\":\"\"}", 0),
                    JobSetStateParams.of(claimed.get(ids[1]), JobState.AVAILABLE, later, null, null, -1),
                    JobSetStateParams.of(claimed.get(ids[2]), JobState.RETRYABLE, later.plusSeconds(1), null, null, 0))))
                    .containsExactlyInAnyOrder(ids);
            JobRow cancelled = d.jobGet(ids[0]).orElseThrow();
            assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
            assertThat(cancelled.finalizedAt()).contains(later);
            assertThat(cancelled.scheduledAt()).isEqualTo(T0);
            assertThat(cancelled.lastError().orElseThrow().message()).isEqualTo("it's \"quoted\", {braced}");
            JobRow snoozed = d.jobGet(ids[1]).orElseThrow();
            assertThat(snoozed.state()).isEqualTo(JobState.AVAILABLE);
            assertThat(snoozed.attempt()).isZero();
            assertThat(snoozed.scheduledAt()).isEqualTo(later);
            assertThat(d.jobGet(ids[2]).orElseThrow().scheduledAt()).isEqualTo(later.plusSeconds(1));
        }
    }

    @Test
    void finalizedAtIsRequiredExactlyForFinalStates() throws Exception {
        try (PostgresDriver d = db.newDriver()) {
            new Migrator(d).up();
            try (Connection c = db.connection(); Statement st = c.createStatement()) {
                assertThatThrownBy(() -> st.execute("INSERT INTO runnel_job (kind, state, created_at, scheduled_at)"
                        + " VALUES ('k', 'completed', now(), now())")).hasMessageContaining("runnel_job_finalized_when_final");
                assertThatThrownBy(() -> st.execute("INSERT INTO runnel_job (kind, state, created_at, scheduled_at, finalized_at)"
                        + " VALUES ('k', 'available', now(), now(), now())")).hasMessageContaining("runnel_job_finalized_when_final");
                try (ResultSet rs = st.executeQuery("SELECT reloptions::text FROM pg_class WHERE oid = 'runnel_job'::regclass")) {
                    rs.next();
                    assertThat(rs.getString(1)).contains("fillfactor=50").contains("autovacuum_vacuum_scale_factor")
                            .contains("autovacuum_vacuum_cost_delay=0");
                }
            }
        }
    }

    @Test
    void worksOnTheApplicationsDataSourceAndLeavesItOpen() {
        String schema = db.create();
        PostgresUrl url = PostgresUrl.parse(PostgresTestSchema.URL);
        PGSimpleDataSource app = new PGSimpleDataSource();
        app.setURL(url.jdbcUrl());
        app.setUser(url.user());
        app.setPassword(url.password());
        try (PostgresDriver d = PostgresDriver.builder().dataSource(app).schema(schema).build()) {
            new Migrator(d).up();
            long id = d.jobInsertMany(List.of(new JobInsertParams("k", "{\"a\": 1}", "q", 2, JobState.AVAILABLE, T0, T0, 3,
                    List.of("x", "y"), "{\"m\": true}"))).getFirst().id();
            JobRow row = d.jobGet(id).orElseThrow();
            assertThat(row.args()).isEqualTo("{\"a\":1}");
            assertThat(row.metadata()).isEqualTo("{\"m\":true}");
            assertThat(row.tags()).containsExactly("x", "y");
            assertThat(d.toString()).contains("application's DataSource");
        }
    }

    /** Every migration version this Runnel knows, in order: 1 to the latest. */
    static List<Integer> allVersions(Migrator migrator) {
        return java.util.stream.IntStream.rangeClosed(1, migrator.latestVersion()).boxed().toList();
    }
}
