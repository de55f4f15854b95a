package dev.runnel.testkit.conformance;

import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.Migrator;
import dev.runnel.JobRow;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.testkit.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of every conformance class: a fresh, migrated database per test. A driver module
 * extends each area's class and supplies only the database.
 */
public abstract class DriverConformance {
    /** The time tests start at; the clock stands still unless a test moves it. */
    protected static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @TempDir
    protected Path dir;
    protected Driver driver;
    protected final MutableClock clock = new MutableClock(T0);
    private final List<Runnel> clients = new ArrayList<>();

    /** A driver on a fresh, empty database (its own file, or its own schema). */
    protected abstract Driver newDriver(Path dir);

    /** A connection of the application's own to the same database, for transactional inserts. */
    protected abstract Connection newConnection(Path dir) throws SQLException;

    @BeforeEach
    void openDatabase() {
        driver = newDriver(dir);
        new Migrator(driver).up();
    }

    @AfterEach
    void closeDatabase() {
        for (Runnel client : clients) {
            client.stop(Duration.ofSeconds(5));
        }
        driver.close();
    }

    /** A client builder on this test's driver and clock, with intervals short enough for tests. */
    protected RunnelBuilder client() {
        return Runnel.builder()
                .driver(driver)
                .clock(clock)
                .fetchPollInterval(Duration.ofMillis(50))
                .fetchCooldown(Duration.ofMillis(1))
                .schedulerInterval(Duration.ofMillis(20))
                .completerFlushInterval(Duration.ofMillis(1))
                .heartbeatInterval(Duration.ofMillis(100))
                .heartbeatTimeout(Duration.ofSeconds(1))
                .leaderLease(Duration.ofSeconds(1))
                .cleanerInterval(Duration.ofMillis(100));
    }

    /** Builds and starts a client, stopped again after the test. */
    protected Runnel started(RunnelBuilder builder) {
        Runnel client = builder.build();
        clients.add(client);
        client.start();
        return client;
    }

    /**
     * Skips the test, by capability, unless the driver can insert inside an application's
     * transaction ({@link Driver#supportsTransactionalInsert()}).
     */
    protected void assumeTransactionalInsert() {
        Assumptions.assumeTrue(driver.supportsTransactionalInsert(),
                driver.name() + " cannot insert inside an application's transaction");
    }

    /**
     * Skips the test, by capability, unless the database is an SQL database that
     * {@link #newConnection} reaches: one whose driver joins a caller's {@link Connection}
     * ({@link Driver#supportsTransactionalInsert()}).
     */
    protected void assumeSqlConnection() {
        Assumptions.assumeTrue(driver.supportsTransactionalInsert(), driver.name() + " has no SQL connection");
    }

    /** Claims up to {@code max} jobs of {@code queue} at the test's time, as client {@code client-a}. */
    protected List<JobRow> claimQueue(String queue, int max) {
        return driver.jobClaim(new JobClaimParams(queue, max, clock.instant(), "client-a"));
    }

    /** Inserts a test job named {@code name} with {@code options}. */
    protected long insertNamed(Runnel runnel, String name, InsertOptions options) {
        return runnel.insert(new TestArgs(name, 0), options).id();
    }

    /** An insert-only client on this test's driver. */
    protected Runnel inserter() {
        return Runnel.builder().driver(driver).clock(clock).build();
    }

    /** Args for tests: a payload and how the test worker should behave. */
    public record TestArgs(String name, int value) implements JobArgs {
        @Override
        public String kind() {
            return "test_job";
        }
    }

    /** Args of a kind no test client has a worker for. */
    public record OrphanArgs(String name) implements JobArgs {
        @Override
        public String kind() {
            return "orphan_job";
        }
    }

    /** Args with per-kind default options. */
    public record UrgentArgs(String name) implements JobArgs {
        @Override
        public String kind() {
            return "urgent_job";
        }

        @Override
        public InsertOptions insertOptions() {
            return InsertOptions.builder().queue("urgent").priority(3).maxAttempts(5).tags("urgent").build();
        }
    }
}
