package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.conformance.ListeningClientConformance;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The listening client's conformance on Postgres ({@link ListeningClientConformance}), and jobs
 * claimed ahead and given back while its only slot is busy.
 */
class PostgresSafetyPollTest extends ListeningClientConformance {
    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    private PostgresDriver workerDriver;
    private PostgresDriver otherDriver;
    private Runnel worker;

    @AfterEach
    void stop() {
        for (Runnel r : new Runnel[] {worker, other}) {
            if (r != null) {
                r.stop(Duration.ofSeconds(5));
            }
        }
        for (PostgresDriver d : new PostgresDriver[] {workerDriver, otherDriver}) {
            if (d != null) {
                d.close();
            }
        }
    }

    @Override
    protected Driver newStore() {
        PostgresDriver driver = PostgresTestSchema.driver(db.create());
        new dev.runnel.Migrator(driver).up();
        return driver;
    }

    @Override
    protected Driver sameStore() {
        return PostgresTestSchema.driver(db.current());
    }

    @Test
    void jobsClaimedAheadAndGivenBackWhileTheOnlySlotIsBusyStartOnceItFrees() throws Exception {
        String schema = db.create();
        workerDriver = PostgresTestSchema.driver(schema);
        otherDriver = PostgresTestSchema.driver(schema);
        java.util.concurrent.CountDownLatch blocking = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        worker = Runnel.builder().driver(workerDriver).autoMigrate(true).clientId("worker")
                .fetchSafetyPollInterval(Duration.ofHours(1))
                .queue("q", 1)
                .worker(Ping.class, job -> {
                    if (job.args().name().equals("blocker")) {
                        blocking.countDown();
                        release.await();
                    }
                    started.add(job.args().name());
                })
                .build();
        worker.start();
        other = Runnel.builder().driver(otherDriver).build();
        // Quick jobs first, so that the client learns they are quick and claims ahead of its slot.
        List<dev.runnel.InsertRequest> quick = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            quick.add(new dev.runnel.InsertRequest(new Ping("quick-" + i), InsertOptions.builder().queue("q").build()));
        }
        other.insertMany(quick);
        Await.until("the quick jobs to run", () -> started.size() == 300);
        List<dev.runnel.InsertRequest> behind = new java.util.ArrayList<>();
        behind.add(new dev.runnel.InsertRequest(new Ping("blocker"), InsertOptions.builder().queue("q").build()));
        for (int i = 0; i < 5; i++) {
            behind.add(new dev.runnel.InsertRequest(new Ping("behind-" + i), InsertOptions.builder().queue("q").build()));
        }
        other.insertMany(behind);
        blocking.await();
        // Claimed ahead of the busy slot, they go back to the table after 50 ms, announced.
        Thread.sleep(300);
        release.countDown();
        // Their announcement came while no slot was free: it must stand until one is, not wait
        // for the hourly poll.
        Await.until("the jobs given back to start", Duration.ofSeconds(10),
                () -> java.util.stream.IntStream.range(0, 5).allMatch(i -> started.contains("behind-" + i)));
    }

    @Override
    protected void insertUnannounced(String queue, String name) throws Exception {
        // Inserted a day ahead (announced to no one: nothing is available), then made available by hand.
        long id = other.insert(new Ping(name), InsertOptions.builder().queue(queue)
                .scheduledAt(java.time.Instant.now().plus(Duration.ofDays(1))).build()).id();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE runnel_job SET state = 'available', scheduled_at = now() WHERE id = ?")) {
            ps.setLong(1, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    @Override
    protected void cutListening() throws Exception {
        try (Connection c = PostgresTestSchema.admin(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        + " WHERE application_name = 'runnel-listener " + db.current() + "'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("listening connections cut").isGreaterThanOrEqualTo(1);
        }
    }
}
