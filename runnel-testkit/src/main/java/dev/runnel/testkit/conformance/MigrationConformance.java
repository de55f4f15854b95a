package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Applying, listing and reverting migrations, and refusing a schema from the future. */
public abstract class MigrationConformance extends DriverConformance {

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
        assertThat(migrator.sql(true)).contains("runnel_job").containsIgnoringCase("create table");
        assertThat(migrator.sql(false)).containsIgnoringCase("drop table");
    }

    @Test
    void autoMigrateAppliesPendingMigrationsOnStart() {
        new Migrator(driver).down(new Migrator(driver).latestVersion());
        Runnel client = Runnel.builder().driver(driver).autoMigrate(true).build();
        client.start();
        assertThat(new Migrator(driver).currentVersion()).isEqualTo(new Migrator(driver).latestVersion());
        client.stop(java.time.Duration.ofSeconds(1));
    }

    @Test
    void schemaFromANewerRunnelIsRefusedAndLeftAlone() throws Exception {
        try (Connection c = newConnection(dir); Statement st = c.createStatement()) {
            // applied_at copied from an existing row: its type differs by database.
            st.executeUpdate("INSERT INTO runnel_migration (version, name, applied_at) "
                    + "SELECT 999, '999_future', applied_at FROM runnel_migration WHERE version = 1");
        }
        Migrator migrator = new Migrator(driver);
        assertThatThrownBy(migrator::up).isInstanceOf(RunnelException.class)
                .hasMessageContaining("999").hasMessageContaining(String.valueOf(migrator.latestVersion()))
                .hasMessageContaining("newer");
        assertThatThrownBy(() -> migrator.down(1)).hasMessageContaining("newer");
        assertThat(driver.migrationApplied()).extracting(r -> r.version()).contains(999);
    }
}
