package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.JobEvent;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.MigrationRecord;
import dev.runnel.testkit.EventRecorder;
import dev.runnel.testkit.ForwardingDriver;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Applying, listing and reverting migrations, and refusing a schema from the future. */
public abstract class MigrationConformance extends DriverConformance {

    /**
     * Every object in this test's database (or schema) that a migration could have made, as
     * {@code "kind name"}: {@code "table runnel_job"}, {@code "index runnel_job_fetch"}, and so on
     * for sequences, types, views, functions and triggers. Leave out the database's own internals
     * and what exists only as part of another object (a table's row type, an array type).
     */
    protected abstract Set<String> databaseObjects() throws SQLException;

    /** Checks that {@code objects}, those of a migrated database, include the main ones. */
    protected void assertMigrated(Set<String> objects) {
        assertThat(objects).contains("table runnel_job", "index runnel_job_fetch", "index runnel_job_due",
                "index runnel_job_unique", "table runnel_migration");
    }

    /** Checks the text {@link Migrator#sql} prints up ({@code up}) and down. */
    protected void assertPrintable(String up, String down) {
        assertThat(up).contains("runnel_job").containsIgnoringCase("create table");
        assertThat(down).containsIgnoringCase("drop table");
    }

    /**
     * Records migration {@code version} named {@code name} as applied, behind the driver's back,
     * as a newer Runnel would have. By default an SQL insert on {@link #newConnection}.
     */
    protected void recordMigrationByHand(int version, String name) throws Exception {
        try (Connection c = newConnection(dir); Statement st = c.createStatement()) {
            // applied_at copied from an existing row: its type differs by database.
            st.executeUpdate("INSERT INTO runnel_migration (version, name, applied_at) "
                    + "SELECT " + version + ", '" + name + "', applied_at FROM runnel_migration WHERE version = 1");
        }
    }

    @Test
    void aFullDownLeavesNothingBehind() throws SQLException {
        Set<String> migrated = databaseObjects();
        assertMigrated(migrated);
        inserter().insert(new TestArgs("to be dropped", 1));
        Migrator migrator = new Migrator(driver);
        assertThat(migrator.down(migrator.latestVersion())).hasSize(migrator.latestVersion());
        assertThat(databaseObjects()).isEmpty();
        assertThat(driver.migrationApplied()).isEmpty();
        assertThat(migrator.currentVersion()).isZero();
        // Up again makes exactly what there was, and nothing of before is left in it.
        migrator.up();
        assertThat(databaseObjects()).isEqualTo(migrated);
        assertThat(driver.jobCountByState()).isEmpty();
    }

    @Test
    void aSecondUpDownUpCycleWorksAndClientsWorkAfterIt() {
        Migrator migrator = new Migrator(driver);
        int latest = migrator.latestVersion();
        for (int cycle = 1; cycle <= 2; cycle++) {
            inserter().insert(new TestArgs("cycle " + cycle, cycle));
            assertThat(migrator.down(latest)).as("down, cycle %d", cycle).hasSize(latest);
            assertThat(migrator.currentVersion()).isZero();
            assertThat(migrator.up()).as("up, cycle %d", cycle).hasSize(latest);
            assertThat(migrator.currentVersion()).isEqualTo(latest);
            assertThat(driver.jobCountByState()).isEmpty();
        }
        EventRecorder events = new EventRecorder();
        Runnel runnel = started(client().queue("default", 5).listener(events).worker(TestArgs.class, job -> {}));
        long id = runnel.insert(new TestArgs("after two cycles", 3)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(runnel.jobGet(id).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void upListDownRoundTrip() {
        Migrator migrator = new Migrator(driver);
        int latest = migrator.latestVersion();
        assertThat(latest).isPositive();
        assertThat(migrator.currentVersion()).isEqualTo(latest);
        assertThat(migrator.list()).allSatisfy(s -> assertThat(s.appliedAt()).isPresent());
        assertThat(migrator.up()).isEmpty();

        assertThat(migrator.down(latest)).hasSize(latest);
        assertThat(migrator.currentVersion()).isZero();
        assertThat(migrator.list()).allSatisfy(s -> assertThat(s.appliedAt()).isEmpty());
        assertThatThrownBy(() -> Runnel.builder().driver(driver).build().start())
                .isInstanceOf(RunnelException.class).hasMessageContaining("migrate up");

        assertThat(migrator.up()).hasSize(latest);
        inserter().insert(new TestArgs("after re-migrating", 1));
    }

    @Test
    void sqlIsPrintableBothWays() {
        Migrator migrator = new Migrator(driver);
        assertPrintable(migrator.sql(true), migrator.sql(false));
    }

    @Test
    void autoMigrateAppliesPendingMigrationsOnStart() {
        new Migrator(driver).down(new Migrator(driver).latestVersion());
        Runnel client = Runnel.builder().driver(driver).autoMigrate(true).build();
        client.start();
        assertThat(new Migrator(driver).currentVersion()).isEqualTo(new Migrator(driver).latestVersion());
        client.stop(Duration.ofSeconds(1));
    }

    @Test
    void aStartingClientReadsTheAppliedMigrationsOnce() {
        AtomicInteger reads = new AtomicInteger();
        Driver counted = new ForwardingDriver(driver) {
            @Override
            public List<MigrationRecord> migrationApplied() {
                reads.incrementAndGet();
                return super.migrationApplied();
            }
        };
        Runnel client = Runnel.builder().driver(counted).build();
        client.start();
        try {
            assertThat(reads).hasValue(1);
        } finally {
            client.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void schemaFromANewerRunnelIsRefusedAndLeftAlone() throws Exception {
        recordMigrationByHand(999, "999_future");
        Migrator migrator = new Migrator(driver);
        assertThatThrownBy(migrator::up).isInstanceOf(RunnelException.class)
                .hasMessageContaining("999").hasMessageContaining(String.valueOf(migrator.latestVersion()))
                .hasMessageContaining("newer");
        assertThatThrownBy(() -> migrator.down(1)).hasMessageContaining("newer");
        assertThatThrownBy(() -> Runnel.builder().driver(driver).build().start()).isInstanceOf(RunnelException.class)
                .hasMessageContaining("999").hasMessageContaining("newer");
        assertThat(driver.migrationApplied()).extracting(r -> r.version()).contains(999);
    }
}
