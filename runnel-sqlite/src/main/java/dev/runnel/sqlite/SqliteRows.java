package dev.runnel.sqlite;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.RepeatedText;
import dev.runnel.driver.Times;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** Decodes job rows in the column order every job statement of {@code job.sql} returns. */
final class SqliteRows {
    private SqliteRows() {}

    /**
     * Decodes the rows one claim returned, in the claim statements' shorter column order: the state
     * and the attempt's times are the claim's own, not read back, and neither is the queue (each
     * column read is a JNI call, under the writer lock). A kind the row before had is not decoded
     * again: a claim's jobs are mostly of a few kinds. A job scheduled at its creation (the common
     * case) shares one instant for both.
     */
    static final class Claimed {
        private final JobClaimParams.Rows rows;
        private final RepeatedText kinds = new RepeatedText();

        Claimed(JobClaimParams claim) {
            this.rows = claim.rows();
        }

        JobRow decode(ResultSet rs) throws SQLException {
            long created = rs.getLong(8);
            long scheduled = rs.getLong(9);
            Instant createdAt = Times.fromMicros(created);
            return rows.row(
                    rs.getLong(1),
                    kinds.of(rs.getBytes(2)),
                    text(rs, 3),
                    rs.getInt(4),
                    rs.getInt(5),
                    rs.getInt(6),
                    JobJson.decodeStrings(text(rs, 7)),
                    createdAt,
                    scheduled == created ? createdAt : Times.fromMicros(scheduled),
                    JobJson.decodeErrors(text(rs, 10)),
                    text(rs, 11),
                    JobJson.decodeStrings(text(rs, 12)));
        }
    }

    /**
     * A text column, read as its UTF-8 bytes (the databases are UTF-8: {@link SqliteConnections}
     * sees to it): sqlite-jdbc's {@code getString} wraps the bytes in a direct buffer and copies
     * them twice. Reading a claimed row's text this way took a quarter less time under the writer
     * lock and a third less memory.
     */
    static String text(ResultSet rs, int column) throws SQLException {
        return string(rs.getBytes(column));
    }

    private static String string(byte[] utf8) {
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    static JobRow decode(ResultSet rs) throws SQLException {
        long attemptedAt = rs.getLong(9);
        Optional<java.time.Instant> attempted = rs.wasNull() ? Optional.empty() : Optional.of(Times.fromMicros(attemptedAt));
        long finalizedAt = rs.getLong(13);
        Optional<java.time.Instant> finalized = rs.wasNull() ? Optional.empty() : Optional.of(Times.fromMicros(finalizedAt));
        return new JobRow(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                JobState.fromDb(rs.getString(4)),
                rs.getString(5),
                rs.getInt(6),
                rs.getInt(7),
                rs.getInt(8),
                attempted,
                JobJson.decodeStrings(rs.getString(10)),
                Times.fromMicros(rs.getLong(11)),
                Times.fromMicros(rs.getLong(12)),
                finalized,
                JobJson.decodeErrors(rs.getString(14)),
                rs.getString(15),
                JobJson.decodeStrings(rs.getString(16)));
    }
}
