package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobInsertTxParams;
import dev.runnel.driver.JobScheduleParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Insert notifications: across driver instances of one schema, never across schemas. */
class PostgresListenTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    /** How long to wait for a notification that should come. */
    private static final long ARRIVES_MS = 5_000;
    /** How long to watch for one that should not. */
    private static final long QUIET_MS = 300;

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> control = new LinkedBlockingQueue<>();

    /** Queue names go to {@link #heard}; the listener's word on its connection to {@link #control}. */
    private void hear(String message) {
        (message.equals(Driver.LISTENING) || message.equals(Driver.NOT_LISTENING) ? control : heard).add(message);
    }

    private static JobInsertParams job(String queue, JobState state, Instant scheduledAt) {
        return PostgresIsolationTest.job(queue, state, scheduledAt);
    }

    private static PostgresDriver migrated(PostgresDriver driver) {
        new Migrator(driver).up();
        return driver;
    }

    @Test
    void hearsInsertsFromAnotherDriverOnTheSameSchemaOnly() throws Exception {
        String schema = db.create();
        String otherSchema = db.create();
        try (PostgresDriver listening = migrated(PostgresTestSchema.driver(schema));
                PostgresDriver sameSchema = PostgresTestSchema.driver(schema);
                PostgresDriver otherDriver = migrated(PostgresTestSchema.driver(otherSchema));
                AutoCloseable _ = listening.listenInserts(this::hear)) {
            otherDriver.jobInsertMany(List.of(job("from_other_schema", JobState.AVAILABLE, T0)));
            sameSchema.jobInsertMany(List.of(job("emails", JobState.AVAILABLE, T0), job("emails", JobState.AVAILABLE, T0),
                    job("billing", JobState.AVAILABLE, T0)));
            List<String> queues = new ArrayList<>();
            queues.add(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS));
            queues.add(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS));
            // One notification per queue per batch, not per job.
            assertThat(queues).containsExactlyInAnyOrder("emails", "billing");
            assertThat(heard.poll(QUIET_MS, TimeUnit.MILLISECONDS)).isNull();
        }
    }

    @Test
    void scheduledJobsAreAnnouncedWhenTheyBecomeAvailableNotWhenInserted() throws Exception {
        try (PostgresDriver driver = migrated(db.newDriver()); AutoCloseable _ = driver.listenInserts(this::hear)) {
            driver.jobInsertMany(List.of(job("later", JobState.SCHEDULED, T0.plusSeconds(60))));
            assertThat(heard.poll(QUIET_MS, TimeUnit.MILLISECONDS)).isNull();
            assertThat(driver.jobScheduleDue(new JobScheduleParams(T0.plusSeconds(60), 100))).isEqualTo(1);
            assertThat(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo("later");
        }
    }

    @Test
    void transactionalInsertsAreAnnouncedOnlyOnCommit() throws Exception {
        try (PostgresDriver driver = migrated(db.newDriver()); AutoCloseable _ = driver.listenInserts(this::hear);
                Connection tx = db.connection()) {
            tx.setAutoCommit(false);
            driver.jobInsertManyTx(new JobInsertTxParams(tx, List.of(job("rolled_back", JobState.AVAILABLE, T0))));
            tx.rollback();
            driver.jobInsertManyTx(new JobInsertTxParams(tx, List.of(job("committed", JobState.AVAILABLE, T0))));
            assertThat(heard.poll(QUIET_MS, TimeUnit.MILLISECONDS)).isNull();
            tx.commit();
            assertThat(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo("committed");
            assertThat(heard.poll(QUIET_MS, TimeUnit.MILLISECONDS)).isNull();
        }
    }

    @Test
    void aBurstIsHeardWholeAndEachLaterNotificationAsSoonAsItComes() throws Exception {
        try (PostgresDriver driver = migrated(db.newDriver()); AutoCloseable _ = driver.listenInserts(this::hear)) {
            // One commit, five queues: five notifications that reach the listener together.
            List<JobInsertParams> burst = new ArrayList<>();
            for (int q = 0; q < 5; q++) {
                burst.add(job("burst_" + q, JobState.AVAILABLE, T0));
            }
            driver.jobInsertMany(burst);
            List<String> queues = new ArrayList<>();
            for (int q = 0; q < 5; q++) {
                queues.add(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS));
            }
            assertThat(queues).containsExactlyInAnyOrder("burst_0", "burst_1", "burst_2", "burst_3", "burst_4");
            // The listener reads on after a notification only while bytes have arrived already:
            // each later one is heard by itself, not held until another comes.
            for (int i = 0; i < 20; i++) {
                driver.jobInsertMany(List.of(job("single_" + i, JobState.AVAILABLE, T0)));
                assertThat(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo("single_" + i);
            }
            assertThat(heard.poll(QUIET_MS, TimeUnit.MILLISECONDS)).isNull();
        }
    }

    @Test
    void pgjdbcCanBeToldNotToWaitForMoreAfterANotification() throws Exception {
        // A pgjdbc whose internals moved would quietly bring back a wait of 1 ms or more after
        // every notification (PostgresListener.setTimedPeek): fail here instead.
        try (Connection c = PostgresTestSchema.admin()) {
            assertThat(PostgresListener.nextLook(c)).as("as pgjdbc opens a connection").isZero();
            assertThat(PostgresListener.setTimedPeek(c, false)).isTrue();
            assertThat(PostgresListener.nextLook(c)).isEqualTo(Long.MAX_VALUE);
            assertThat(PostgresListener.setTimedPeek(c, true)).isTrue();
            assertThat(PostgresListener.nextLook(c)).isZero();
        }
    }

    @Test
    void reconnectsAfterLosingItsConnection() throws Exception {
        try (PostgresDriver driver = migrated(db.newDriver()); AutoCloseable _ = driver.listenInserts(this::hear)) {
            assertThat(control.poll()).as("said once its connection is in place").isEqualTo(Driver.LISTENING);
            assertThat(terminateListener(db.current())).isEqualTo(1);
            assertThat(control.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo(Driver.NOT_LISTENING);
            assertThat(control.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo(Driver.LISTENING);
            // Notifications sent while it is away are lost by design: insert until one is heard.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            String got = null;
            while (got == null && System.nanoTime() < deadline) {
                driver.jobInsertMany(List.of(job("after_reconnect", JobState.AVAILABLE, T0)));
                got = heard.poll(200, TimeUnit.MILLISECONDS);
            }
            assertThat(got).isEqualTo("after_reconnect");
        }
    }

    @Test
    void anIdleListenerOutlivesItsSocketTimeout() throws Exception {
        String schema = db.create();
        try (PostgresDriver driver = migrated(PostgresDriver.builder().url(PostgresTestSchema.URL).schema(schema)
                        .socketTimeout(Duration.ofSeconds(1)).build());
                AutoCloseable _ = driver.listenInserts(this::hear)) {
            List<Integer> before = listenerPids(schema);
            assertThat(before).hasSize(1);
            // Its waits for notifications replace the socket timeout: idle, it is not taken for lost.
            Thread.sleep(2_500);
            assertThat(listenerPids(schema)).isEqualTo(before);
            driver.jobInsertMany(List.of(job("after_idling", JobState.AVAILABLE, T0)));
            assertThat(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo("after_idling");
        }
    }

    private static List<Integer> listenerPids(String schema) throws SQLException {
        List<Integer> pids = new ArrayList<>();
        try (Connection c = PostgresTestSchema.admin();
                PreparedStatement ps = c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE application_name = ?")) {
            ps.setString(1, "runnel-listener " + schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pids.add(rs.getInt(1));
                }
            }
        }
        return pids;
    }

    @Test
    void closingStopsTheThreadAndReleasesTheConnection() throws Exception {
        try (PostgresDriver driver = migrated(db.newDriver())) {
            AutoCloseable subscription = driver.listenInserts(this::hear);
            assertThat(listenerBackends(db.current())).isEqualTo(1);
            assertThat(listenerThreads()).isNotEmpty();
            subscription.close();
            subscription.close();
            assertThat(listenerThreads()).isEmpty();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (listenerBackends(db.current()) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(listenerBackends(db.current())).isZero();

            // Closing the driver closes listeners it still has.
            driver.listenInserts(this::hear);
            assertThat(listenerThreads()).isNotEmpty();
        }
        assertThat(listenerThreads()).isEmpty();
    }

    @Test
    void onAnApplicationPoolItKeepsOneConnectionAndGivesItBackUnsubscribed() throws Exception {
        String schema = db.create();
        PostgresUrl url = PostgresUrl.parse(PostgresTestSchema.URL);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url.jdbcUrl());
        config.setUsername(url.user());
        config.setPassword(url.password());
        config.setMaximumPoolSize(2);
        try (HikariDataSource app = new HikariDataSource(config)) {
            try (PostgresDriver driver = migrated(PostgresDriver.builder().dataSource(app).schema(schema).build());
                    AutoCloseable _ = driver.listenInserts(this::hear)) {
                driver.jobInsertMany(List.of(job("pooled", JobState.AVAILABLE, T0)));
                assertThat(heard.poll(ARRIVES_MS, TimeUnit.MILLISECONDS)).isEqualTo("pooled");
            }
            assertThat(app.isClosed()).isFalse();
            try (Connection first = app.getConnection(); Connection second = app.getConnection()) {
                assertThat(listeningChannels(first)).isEmpty();
                assertThat(listeningChannels(second)).isEmpty();
                // pgjdbc's wait for notifications back as it was, for the application's next use.
                assertThat(PostgresListener.nextLook(first)).isZero();
                assertThat(PostgresListener.nextLook(second)).isZero();
            }
        }
    }

    private static List<String> listeningChannels(Connection c) throws SQLException {
        List<String> channels = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_listening_channels()")) {
            while (rs.next()) {
                channels.add(rs.getString(1));
            }
        }
        return channels;
    }

    private static List<Thread> listenerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("runnel-postgres-listener-") && t.isAlive())
                .toList();
    }

    private static int listenerBackends(String schema) throws SQLException {
        return countBackends("SELECT count(*) FROM pg_stat_activity WHERE application_name = ?", schema);
    }

    private static int terminateListener(String schema) throws SQLException {
        return countBackends("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ?",
                schema);
    }

    private static int countBackends(String sql, String schema) throws SQLException {
        try (Connection c = PostgresTestSchema.admin(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, "runnel-listener " + schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
