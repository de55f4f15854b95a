package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Migrator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job table's checks of its kind's and queue's length, which settle a name of up to 128 bytes
 * by its byte count and count the characters of a longer one only: the same names pass and fail as
 * under the first migration's checks, by character, under the same constraint names.
 */
class PostgresJobChecksTest {
    private static final int LENGTH_CHECKS = 15;

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    private static void insert(Connection c, String kind, String queue) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO runnel_job (kind, queue, created_at, scheduled_at) VALUES (?, ?, now(), now())")) {
            ps.setString(1, kind);
            ps.setString(2, queue);
            ps.executeUpdate();
        }
    }

    /** Names of 1 to 128 characters pass, in one byte each or in two; none and 129 characters fail. */
    private static void assertLengthsChecked(Connection c) throws SQLException {
        String e = "\u00e9"; // two bytes in UTF-8
        insert(c, "k", "q");
        insert(c, "k".repeat(128), "q".repeat(128));
        insert(c, e.repeat(128), e.repeat(128)); // 256 bytes, 128 characters
        insert(c, e.repeat(64) + "k", "q");
        assertThatThrownBy(() -> insert(c, "k".repeat(129), "q")).hasMessageContaining("runnel_job_kind_length");
        assertThatThrownBy(() -> insert(c, e.repeat(129), "q")).hasMessageContaining("runnel_job_kind_length");
        assertThatThrownBy(() -> insert(c, "", "q")).hasMessageContaining("runnel_job_kind_length");
        assertThatThrownBy(() -> insert(c, "k", "q".repeat(129))).hasMessageContaining("runnel_job_queue_length");
        assertThatThrownBy(() -> insert(c, "k", e.repeat(129))).hasMessageContaining("runnel_job_queue_length");
        assertThatThrownBy(() -> insert(c, "k", "")).hasMessageContaining("runnel_job_queue_length");
        try (PreparedStatement ps = c.prepareStatement("UPDATE runnel_job SET kind = ? WHERE kind = 'k'")) {
            ps.setString(1, e.repeat(129));
            assertThatThrownBy(ps::executeUpdate).hasMessageContaining("runnel_job_kind_length");
        }
    }

    private static String definition(Connection c, String constraint) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                + "WHERE conname = ? AND connamespace = current_schema()::regnamespace")) {
            ps.setString(1, constraint);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }

    @Test
    void namesOfUpTo128CharactersPassInBytesOrCharactersAndOthersFailAsBefore() throws SQLException {
        try (PostgresDriver driver = db.newDriver(); Connection c = db.connection()) {
            Migrator migrator = new Migrator(driver);
            migrator.up();
            assertThat(definition(c, "runnel_job_kind_length")).contains("octet_length(kind)");
            assertLengthsChecked(c);
        }
    }

    @Test
    void theDownMigrationGivesTheCharacterCountBackWithTheSameVerdicts() throws SQLException {
        try (PostgresDriver driver = db.newDriver(); Connection c = db.connection()) {
            Migrator migrator = new Migrator(driver);
            migrator.up();
            assertThat(migrator.currentVersion()).isEqualTo(LENGTH_CHECKS);
            migrator.down(1);
            assertThat(migrator.currentVersion()).isEqualTo(LENGTH_CHECKS - 1);
            assertThat(definition(c, "runnel_job_kind_length")).doesNotContain("octet_length")
                    .contains("char_length(kind)");
            assertThat(definition(c, "runnel_job_queue_length")).doesNotContain("octet_length");
            assertLengthsChecked(c);
        }
    }
}
