package dev.runnel.sqlite;

import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The cleaner's delete for {@link SqliteDriver}: final jobs past their retention, found without an
 * index on them (one would cost every completion an entry, about 6% of the 1M-job burndown) by
 * scanning rowids up to the last job created before the cutoff.
 */
final class SqliteCleaner {
    private final SqliteConnections connections;
    /** The driver's {@code job.sql}. */
    private final SqlFile sql;

    SqliteCleaner(SqliteConnections connections, SqlFile sql) {
        this.connections = connections;
        this.sql = sql;
    }

    int deleteFinalized(JobDeleteFinalizedParams p) {
        long cutoff = Times.toMicros(p.finalizedBefore());
        return connections.write(s -> {
            long bound = createdBefore(s, cutoff);
            if (bound == 0) {
                return 0;
            }
            PreparedStatement delete = s.prepare(sql.get("JobDeleteFinalized"));
            delete.setString(1, p.state().dbName());
            delete.setLong(2, cutoff);
            delete.setInt(3, p.limit());
            delete.setString(4, p.lease().leaderId());
            delete.setLong(5, Times.toMicros(p.lease().now()));
            delete.setLong(6, bound);
            return delete.executeUpdate();
        });
    }

    /**
     * The id of the last job created before {@code micros}, or 0 when there is none, found by
     * binary search over the rowids (ids ascend with creation; a job out of order only waits for a
     * later round). About 25 point reads for a table of millions.
     */
    private long createdBefore(SqliteConnections.Session s, long micros) throws SQLException {
        long lo;
        long hi;
        try (ResultSet rs = s.prepare(sql.get("JobIdRange")).executeQuery()) {
            rs.next();
            lo = rs.getLong(1);
            hi = rs.getLong(2);
            if (rs.wasNull()) {
                return 0;
            }
        }
        PreparedStatement probe = s.prepare(sql.get("JobCreatedAtFrom"));
        long[] first = probe(probe, lo);
        if (first == null || first[1] >= micros) {
            return 0;
        }
        lo = first[0];
        // Invariant: the job at lo was created before the cutoff; none after hi is looked at.
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            long[] at = probe(probe, mid);
            if (at != null && at[1] < micros) {
                lo = at[0]; // at least mid: ids may have gaps (deleted jobs)
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The first job from {@code id} on, as {@code [id, created_at]}, or null when there is none. */
    private static long[] probe(PreparedStatement probe, long id) throws SQLException {
        probe.setLong(1, id);
        try (ResultSet rs = probe.executeQuery()) {
            return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : null;
        }
    }
}
