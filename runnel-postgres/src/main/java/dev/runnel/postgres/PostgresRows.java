package dev.runnel.postgres;

import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.RepeatedText;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.util.ByteConverter;

/** Decodes job rows in the column order every job statement of {@code job.sql} returns. */
final class PostgresRows {
    /** Seconds from the Unix epoch to Postgres's, 2000-01-01T00:00:00Z. */
    private static final long POSTGRES_EPOCH_SECONDS = 946_684_800L;
    /** {@link PGResultSetMetaData#getFormat}'s value for a column in binary transfer. */
    private static final int BINARY = 1;

    private PostgresRows() {}

    static JobRow decode(ResultSet rs) throws SQLException {
        return new JobRow(
                rs.getLong(1),
                rs.getString(2),
                CompactJson.read(rs, 3),
                JobState.fromDb(rs.getString(4)),
                rs.getString(5),
                rs.getInt(6),
                rs.getInt(7),
                rs.getInt(8),
                Optional.ofNullable(instant(rs, 9)),
                strings(rs, 10),
                instant(rs, 11),
                instant(rs, 12),
                Optional.ofNullable(instant(rs, 13)),
                errors(rs, 14),
                CompactJson.read(rs, 15),
                strings(rs, 16));
    }

    /**
     * Decodes the rows one claim returned, in the claim statements' shorter column order: the
     * queue is the claim's own, so it is not read back. What rows of a claim mostly share is made
     * once: a kind the row before had is not decoded again, a job scheduled at its creation (the
     * common case) shares one instant for both, and args are compacted in one buffer reused from
     * row to row.
     */
    static final class Claimed {
        private final JobClaimParams.Rows rows;
        private final CompactJson.Buffer buffer = new CompactJson.Buffer();
        private final RepeatedText kinds = new RepeatedText();

        Claimed(JobClaimParams claim) {
            this.rows = claim.rows();
        }

        JobRow decode(ResultSet rs) throws SQLException {
            Instant createdAt = instant(rs, 8);
            Instant scheduledAt = Arrays.equals(rs.getBytes(8), rs.getBytes(9)) ? createdAt : instant(rs, 9);
            return rows.row(
                    rs.getLong(1),
                    kinds.of(rs.getBytes(2)), // as received: the connection's encoding is UTF-8
                    CompactJson.of(rs.getBytes(3), buffer),
                    rs.getInt(4),
                    rs.getInt(5),
                    rs.getInt(6),
                    strings(rs, 7),
                    createdAt,
                    scheduledAt,
                    errors(rs, 10),
                    CompactJson.of(rs.getBytes(11), buffer), // NULL, the empty object, stays null for the row
                    strings(rs, 12));
        }
    }

    /**
     * A timestamptz column as an instant. In binary transfer (pgjdbc's, for a statement prepared on
     * the server) the value is microseconds since 2000-01-01 UTC, read here straight from the
     * row's bytes: going through {@code OffsetDateTime} built five objects for each value, two
     * values on every claimed job. Text transfer, and the infinities, take the general way.
     */
    static Instant instant(ResultSet rs, int column) throws SQLException {
        if (rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(column) == BINARY) {
            byte[] value = rs.getBytes(column);
            if (value == null) {
                return null;
            }
            if (value.length == Long.BYTES) {
                long micros = ByteConverter.int8(value, 0);
                if (micros != Long.MAX_VALUE && micros != Long.MIN_VALUE) {
                    return Instant.ofEpochSecond(POSTGRES_EPOCH_SECONDS + Math.floorDiv(micros, 1_000_000L),
                            Math.floorMod(micros, 1_000_000L) * 1_000L);
                }
            }
        }
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    static List<String> strings(ResultSet rs, int column) throws SQLException {
        Array array = rs.getArray(column);
        if (array == null) {
            return List.of();
        }
        try {
            return List.of((String[]) array.getArray());
        } finally {
            array.free();
        }
    }

    /** Errors arrive as text[] (the statements cast jsonb[]), one JSON object each. */
    private static List<JobError> errors(ResultSet rs, int column) throws SQLException {
        List<String> json = strings(rs, column);
        if (json.isEmpty()) {
            return List.of();
        }
        List<JobError> errors = new ArrayList<>(json.size());
        for (String error : json) {
            errors.add(JobJson.decodeError(error));
        }
        return errors;
    }
}
