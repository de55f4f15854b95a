package dev.runnel.postgres;

import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobJson;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Decodes job rows in the column order every job statement of {@code job.sql} returns. */
final class PostgresRows {
    private PostgresRows() {}

    static JobRow decode(ResultSet rs) throws SQLException {
        return new JobRow(
                rs.getLong(1),
                rs.getString(2),
                CompactJson.of(rs.getString(3)),
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
                CompactJson.of(rs.getString(15)),
                strings(rs, 16));
    }

    /**
     * Decodes a row {@code claim} returned, in the claim statements' shorter column order: the
     * queue is the claim's own, so it is not read back.
     */
    static JobRow decodeClaimed(ResultSet rs, JobClaimParams claim) throws SQLException {
        return claim.claimedRow(
                rs.getLong(1),
                rs.getString(2),
                CompactJson.of(rs.getString(3)),
                rs.getInt(4),
                rs.getInt(5),
                rs.getInt(6),
                strings(rs, 7),
                instant(rs, 8),
                instant(rs, 9),
                errors(rs, 10),
                CompactJson.of(rs.getString(11)),
                strings(rs, 12));
    }

    static Instant instant(ResultSet rs, int column) throws SQLException {
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
