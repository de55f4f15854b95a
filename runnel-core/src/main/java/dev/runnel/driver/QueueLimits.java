package dev.runnel.driver;

import dev.runnel.KeyLimit;
import dev.runnel.RateLimit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A queue's limits as both drivers read and keep them: the columns of {@code runnel_queue}, and
 * the arithmetic of a rate limit over the start times the queue keeps (its last {@code jobs}
 * starts, in microseconds, oldest first). Internal SPI.
 */
public final class QueueLimits {
    private QueueLimits() {}

    /** Column {@code column} as an optional int. */
    public static OptionalInt optionalInt(ResultSet rs, int column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(value);
    }

    /** The rate limit in columns {@code jobsColumn} and {@code jobsColumn + 1} (its period in microseconds). */
    public static Optional<RateLimit> rateLimit(ResultSet rs, int jobsColumn) throws SQLException {
        int jobs = rs.getInt(jobsColumn);
        if (rs.wasNull()) {
            return Optional.empty();
        }
        return Optional.of(new RateLimit(jobs, java.time.Duration.ofNanos(rs.getLong(jobsColumn + 1) * 1_000)));
    }

    /**
     * The per-key limit in columns {@code sourceColumn} (source), +1 (field), +2 (limit), +3
     * (weights, a JSON object) and +4 and +5 (the rate per key).
     */
    public static Optional<KeyLimit> keyLimit(ResultSet rs, int sourceColumn) throws SQLException {
        String source = rs.getString(sourceColumn);
        if (source == null) {
            return Optional.empty();
        }
        Map<String, Integer> weights = new LinkedHashMap<>();
        JobJson.readTree(rs.getString(sourceColumn + 3)).properties()
                .forEach(e -> weights.put(e.getKey(), e.getValue().asInt()));
        return Optional.of(new KeyLimit(source.equals("args") ? KeyLimit.Source.ARGS : KeyLimit.Source.METADATA,
                rs.getString(sourceColumn + 1), rs.getInt(sourceColumn + 2), weights, rateLimit(rs, sourceColumn + 4)));
    }

    /** A per-key limit's weights as the JSON object the drivers store. */
    public static String weights(Optional<KeyLimit> limit) {
        com.fasterxml.jackson.databind.node.ObjectNode node = JobJson.NODES.objectNode();
        limit.ifPresent(l -> l.weights().forEach(node::put));
        return node.toString();
    }

    /** Binds {@code rate} to parameters {@code jobs} and {@code period} (in microseconds), or nulls. */
    public static void bindRate(Sql sql, PreparedStatement ps, SqlFile.Param jobs, SqlFile.Param period,
            Optional<RateLimit> rate) throws SQLException {
        if (rate.isPresent()) {
            sql.setInt(ps, jobs, rate.get().jobs());
            sql.setLong(ps, period, rate.get().periodMicros());
        } else {
            sql.setNull(ps, jobs, Types.INTEGER);
            sql.setNull(ps, period, Types.BIGINT);
        }
    }

    /** Binds {@code value} to parameter {@code param}, or a null. */
    public static void bindInt(Sql sql, PreparedStatement ps, SqlFile.Param param, OptionalInt value) throws SQLException {
        if (value.isPresent()) {
            sql.setInt(ps, param, value.getAsInt());
        } else {
            sql.setNull(ps, param, Types.INTEGER);
        }
    }

    /** How many more jobs may start at {@code now} under {@code rate}, given the kept {@code starts}. */
    public static int rateRoom(RateLimit rate, long[] starts, long nowMicros) {
        long since = nowMicros - rate.periodMicros();
        int recent = 0;
        for (long start : starts) {
            if (start > since) {
                recent++;
            }
        }
        return Math.max(0, rate.jobs() - recent);
    }

    /** The starts to keep after {@code started} more jobs started at {@code now}: the last {@code rate.jobs()}. */
    public static long[] afterStarting(RateLimit rate, long[] starts, long nowMicros, int started) {
        long[] all = Arrays.copyOf(starts, starts.length + started);
        Arrays.fill(all, starts.length, all.length, nowMicros);
        return all.length <= rate.jobs() ? all : Arrays.copyOfRange(all, all.length - rate.jobs(), all.length);
    }
}
