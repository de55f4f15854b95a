package dev.runnel.sqlite;

import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * The job administration of {@link SqliteDriver}, one statement each, from {@code admin.sql}.
 * Other processes are not told of a cancel: their clients find it at their next poll.
 */
final class SqliteAdmin {
    private static final Set<String> STATEMENTS = Set.of("JobCancelMany", "JobCancelRequested", "JobRetryMany",
            "JobUniqueHolder", "JobDeleteMany");

    private final SqliteConnections connections;
    private final SqlFile sql;

    SqliteAdmin(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("admin.sql", SqliteAdmin.class.getResourceAsStream("admin.sql"), STATEMENTS);
    }

    long[] cancelMany(JobCancelParams p) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("JobCancelMany"));
            ps.setString(1, SqliteBatch.encodeIds(p.ids()));
            ps.setLong(2, Times.toMicros(p.now()));
            ps.setString(3, p.now().toString());
            ps.setString(4, p.reason());
            return JdbcIds.read(ps, p.ids().length);
        });
    }

    long[] cancelRequested(long[] ids) {
        return connections.read(s -> {
            PreparedStatement ps = s.prepare(sql.get("JobCancelRequested"));
            ps.setString(1, SqliteBatch.encodeIds(ids));
            return JdbcIds.read(ps, ids.length);
        });
    }

    long[] retryMany(long[] ids, Instant now) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("JobRetryMany"));
            ps.setString(1, SqliteBatch.encodeIds(ids));
            ps.setLong(2, Times.toMicros(now));
            return JdbcIds.read(ps, ids.length);
        });
    }

    Optional<Long> uniqueHolder(long id) {
        return connections.read(s -> {
            PreparedStatement ps = s.prepare(sql.get("JobUniqueHolder"));
            ps.setLong(1, id);
            long[] holder = JdbcIds.read(ps, 1);
            return holder.length == 0 ? Optional.empty() : Optional.of(holder[0]);
        });
    }

    long[] deleteMany(long[] ids) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get("JobDeleteMany"));
            ps.setString(1, SqliteBatch.encodeIds(ids));
            return JdbcIds.read(ps, ids.length);
        });
    }
}
