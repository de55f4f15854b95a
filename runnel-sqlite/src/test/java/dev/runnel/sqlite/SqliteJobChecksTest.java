package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.driver.Migration;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job table's state constraints, written as comparisons by a migration that edits the table's
 * definition in place: still enforced, read by the connection that migrated and by one that had
 * read the schema before, and given back as they were by the down migration.
 */
class SqliteJobChecksTest {
    private static final int CHECKS_AS_COMPARISONS = 12;
    @TempDir
    Path dir;
    private SqliteConnections migrating;
    private SqliteConnections other;
    private SqliteMigrations migrations;

    @BeforeEach
    void migrateToTheVersionBefore() {
        migrating = open();
        migrations = new SqliteMigrations(migrating);
        for (Migration m : migrations.all()) {
            if (m.version() < CHECKS_AS_COMPARISONS) {
                migrations.apply(m, true);
            }
        }
        migrating.write(s -> {
            s.exec("INSERT INTO runnel_job (id, kind, created_at, scheduled_at) VALUES (1, 'k', 1, 1)");
            return null;
        });
        // Another driver on the file, which has read the schema as it was.
        other = open();
        assertThat(jobs(other)).isEqualTo(1);
    }

    @AfterEach
    void close() {
        other.close();
        migrating.close();
    }

    private SqliteConnections open() {
        Path file = dir.resolve("jobs.db");
        return new SqliteConnections("jdbc:sqlite:" + file, file.toString(), Optional.of(file), 1,
                Duration.ofSeconds(5), SqliteBusyWait.FAIR);
    }

    private Migration checksMigration() {
        return migrations.all().stream().filter(m -> m.version() == CHECKS_AS_COMPARISONS).findFirst().orElseThrow();
    }

    private static int count(SqliteConnections.Session s, String sql) throws SQLException {
        try (Statement st = s.connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.getInt(1);
        }
    }

    /** The jobs in the table, read by a statement that runs (an EXPLAIN does not check the schema's version). */
    private static int jobs(SqliteConnections connections) {
        return connections.write(s -> count(s, "SELECT count(*) FROM runnel_job"));
    }

    private static String tableSql(SqliteConnections connections) {
        return connections.write(s -> {
            try (Statement st = s.connection.createStatement();
                    ResultSet rs = st.executeQuery("SELECT sql FROM sqlite_schema WHERE name = 'runnel_job'")) {
                return rs.getString(1);
            }
        });
    }

    /** How many temporary b-trees the statement that completes a job opens: one per IN list checked. */
    private static int listsBuiltByACompletion(SqliteConnections connections) {
        return connections.write(s -> {
            int lists = 0;
            try (Statement st = s.connection.createStatement();
                    ResultSet rs = st.executeQuery(
                            "EXPLAIN UPDATE runnel_job SET state = 'completed', finalized_at = 2 WHERE id = 1")) {
                while (rs.next()) {
                    if (rs.getString(2).equals("OpenEphemeral")) {
                        lists++;
                    }
                }
            }
            return lists;
        });
    }

    private static void update(SqliteConnections connections, String set) {
        connections.write(s -> {
            s.exec("UPDATE runnel_job SET " + set + " WHERE id = 1");
            return null;
        });
    }

    private static void assertStatesEnforced(SqliteConnections connections) {
        assertThatThrownBy(() -> update(connections, "state = 'done'"))
                .hasMessageContaining("CHECK constraint failed: state = 'available' OR state = 'scheduled'");
        assertThatThrownBy(() -> update(connections, "state = 'completed'"))
                .hasMessageContaining("CHECK constraint failed: (finalized_at IS NOT NULL) = (state = 'completed' OR");
        assertThatThrownBy(() -> update(connections, "finalized_at = 2"))
                .hasMessageContaining("CHECK constraint failed: (finalized_at IS NOT NULL) = (state = 'completed' OR");
        update(connections, "state = 'running'");
        update(connections, "state = 'discarded', finalized_at = 2");
        update(connections, "state = 'available', finalized_at = NULL");
    }

    @Test
    void theStateConstraintsBecomeComparisonsThatTheMigratingConnectionAndAnotherBothEnforce() {
        assertThat(listsBuiltByACompletion(migrating)).isEqualTo(2);
        assertThat(listsBuiltByACompletion(other)).isEqualTo(2);

        assertThat(migrations.apply(checksMigration(), true)).isTrue();

        assertThat(tableSql(migrating)).doesNotContain("state IN (")
                .contains("CHECK ((finalized_at IS NOT NULL) = (state = 'completed' OR state = 'cancelled' OR state = 'discarded'))");
        assertThat(listsBuiltByACompletion(migrating)).isZero();
        assertStatesEnforced(migrating);
        // The other connection reads the schema again at its next statement: the version moved on.
        assertThat(jobs(other)).isEqualTo(1);
        assertThat(listsBuiltByACompletion(other)).isZero();
        assertStatesEnforced(other);
    }

    @Test
    void theDownMigrationGivesTheListsBackAsTheyWereAndUpMakesTheComparisonsAgain() {
        String before = tableSql(migrating);
        migrations.apply(checksMigration(), true);
        String after = tableSql(migrating);
        assertThat(after).isNotEqualTo(before);

        assertThat(migrations.apply(checksMigration(), false)).isTrue();
        assertThat(tableSql(migrating)).isEqualTo(before);
        assertThat(listsBuiltByACompletion(migrating)).isEqualTo(2);
        assertThatThrownBy(() -> update(migrating, "state = 'done'"))
                .hasMessageContaining("CHECK constraint failed: state IN ('available'");

        migrations.apply(checksMigration(), true);
        assertThat(tableSql(migrating)).isEqualTo(after);
        assertThat(jobs(other)).isEqualTo(1);
        assertThat(listsBuiltByACompletion(migrating)).isZero();
        assertThat(listsBuiltByACompletion(other)).isZero();
    }
}
