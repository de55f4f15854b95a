package dev.runnel.sqlite;

import static dev.runnel.sqlite.JobSql.P.*;

import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.Sql;
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
    private final SqlFile<JobSql> sql;

    private final SqliteLinks links;

    SqliteCleaner(SqliteConnections connections, SqlFile<JobSql> sql, SqliteLinks links) {
        this.connections = connections;
        this.sql = sql;
        this.links = links;
    }

    int deleteFinalized(JobDeleteFinalizedParams p) {
        long cutoff = Times.toMicros(p.finalizedBefore());
        return connections.writeTransaction(s -> {
            long bound = createdBefore(s, cutoff);
            if (bound == 0) {
                return 0;
            }
            Sql jobDeleteFinalized = sql.get(JobSql.JobDeleteFinalized);
            PreparedStatement delete = s.prepare(jobDeleteFinalized.text());
            jobDeleteFinalized.setString(delete, STATE, p.state().dbName());
            jobDeleteFinalized.setLong(delete, BEFORE, cutoff);
            jobDeleteFinalized.setInt(delete, LIMIT, p.limit());
            jobDeleteFinalized.setString(delete, LEADER_ID, p.lease().leaderId());
            jobDeleteFinalized.setLong(delete, NOW, Times.toMicros(p.lease().now()));
            jobDeleteFinalized.setLong(delete, MAX_ID, bound);
            int deleted = delete.executeUpdate();
            if (deleted > 0) {
                links.cleanOrphans(s, bound, p.limit(), p.lease().now());
            }
            return deleted;
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
        try (ResultSet rs = s.prepare(sql.get(JobSql.JobIdRange).text()).executeQuery()) {
            rs.next();
            lo = rs.getLong(1);
            hi = rs.getLong(2);
            if (rs.wasNull()) {
                return 0;
            }
        }
        Sql probeSql = sql.get(JobSql.JobCreatedAtFrom);
        PreparedStatement probe = s.prepare(probeSql.text());
        long[] first = probe(probeSql, probe, lo);
        if (first == null || first[1] >= micros) {
            return 0;
        }
        lo = first[0];
        // Invariant: the job at lo was created before the cutoff; none after hi is looked at.
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            long[] at = probe(probeSql, probe, mid);
            if (at != null && at[1] < micros) {
                lo = at[0]; // at least mid: ids may have gaps (deleted jobs)
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The first job from {@code id} on, as {@code [id, created_at]}, or null when there is none. */
    private static long[] probe(Sql probeSql, PreparedStatement probe, long id) throws SQLException {
        probeSql.setLong(probe, ID, id);
        try (ResultSet rs = probe.executeQuery()) {
            return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : null;
        }
    }
}
