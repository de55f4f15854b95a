package dev.runnel.sqlite;

import static dev.runnel.sqlite.AdminSql.P.*;

import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.Optional;

/**
 * The job administration of {@link SqliteDriver}, one statement each, from {@code admin.sql}.
 * Other processes are not told of a cancel: their clients find it at their next poll.
 */
final class SqliteAdmin {
    private final SqliteConnections connections;
    private final SqlFile<AdminSql> sql;

    SqliteAdmin(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("admin.sql", AdminSql.class.getResourceAsStream("admin.sql"), AdminSql.class);
    }

    long[] cancelMany(JobCancelParams p) {
        return connections.write(s -> {
            Sql jobCancelMany = sql.get(AdminSql.JobCancelMany);
            PreparedStatement ps = s.prepare(jobCancelMany.text());
            jobCancelMany.setString(ps, IDS, SqliteBatch.encodeIds(p.ids()));
            jobCancelMany.setLong(ps, NOW, Times.toMicros(p.now()));
            jobCancelMany.setString(ps, NOW_TEXT, p.now().toString());
            jobCancelMany.setString(ps, REASON, p.reason());
            return JdbcIds.read(ps, p.ids().length);
        });
    }

    long[] cancelRequested(long[] ids) {
        return connections.read(s -> {
            Sql jobCancelRequested = sql.get(AdminSql.JobCancelRequested);
            PreparedStatement ps = s.prepare(jobCancelRequested.text());
            jobCancelRequested.setString(ps, IDS, SqliteBatch.encodeIds(ids));
            return JdbcIds.read(ps, ids.length);
        });
    }

    long[] retryMany(long[] ids, Instant now) {
        return connections.write(s -> {
            Sql jobRetryMany = sql.get(AdminSql.JobRetryMany);
            PreparedStatement ps = s.prepare(jobRetryMany.text());
            jobRetryMany.setString(ps, IDS, SqliteBatch.encodeIds(ids));
            jobRetryMany.setLong(ps, NOW, Times.toMicros(now));
            return JdbcIds.read(ps, ids.length);
        });
    }

    Optional<Long> uniqueHolder(long id) {
        return connections.read(s -> {
            Sql jobUniqueHolder = sql.get(AdminSql.JobUniqueHolder);
            PreparedStatement ps = s.prepare(jobUniqueHolder.text());
            jobUniqueHolder.setLong(ps, ID, id);
            long[] holder = JdbcIds.read(ps, 1);
            return holder.length == 0 ? Optional.empty() : Optional.of(holder[0]);
        });
    }

    long[] deleteMany(long[] ids) {
        return connections.write(s -> {
            Sql jobDeleteMany = sql.get(AdminSql.JobDeleteMany);
            PreparedStatement ps = s.prepare(jobDeleteMany.text());
            jobDeleteMany.setString(ps, IDS, SqliteBatch.encodeIds(ids));
            return JdbcIds.read(ps, ids.length);
        });
    }
}
