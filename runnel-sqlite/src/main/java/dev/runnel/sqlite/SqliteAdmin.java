package dev.runnel.sqlite;

import static dev.runnel.sqlite.AdminSql.P.*;

import dev.runnel.JobState;
import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.Links;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The job administration of {@link SqliteDriver}, one statement each, from {@code admin.sql}.
 * Other processes are not told of a cancel: their clients find it at their next poll.
 */
final class SqliteAdmin {
    private final SqliteConnections connections;
    private final SqlFile<AdminSql> sql;
    private final SqliteLinks links;

    SqliteAdmin(SqliteConnections connections, SqliteLinks links) {
        this.connections = connections;
        this.links = links;
        this.sql = SqlFile.parse("admin.sql", AdminSql.class.getResourceAsStream("admin.sql"), AdminSql.class);
    }

    long[] cancelMany(JobCancelParams p) {
        return connections.writeTransaction(s -> {
            Sql jobCancelMany = sql.get(AdminSql.JobCancelMany);
            PreparedStatement ps = s.prepare(jobCancelMany.text());
            jobCancelMany.setString(ps, IDS, SqliteBatch.encodeIds(p.ids()));
            jobCancelMany.setLong(ps, NOW, Times.toMicros(p.now()));
            jobCancelMany.setString(ps, NOW_TEXT, p.now().toString());
            jobCancelMany.setString(ps, REASON, p.reason());
            long[] changed = JdbcIds.read(ps, p.ids().length);
            if (changed.length > 0) {
                List<Links.Finished> finished = new ArrayList<>();
                links.linkedAmong(s, changed).forEach((id, state) -> {
                    if (state == JobState.CANCELLED) {
                        finished.add(new Links.Finished(id, state.dbName()));
                    }
                });
                Links.settle(finished, p.now(), links.steps(s));
            }
            return changed;
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
        return connections.writeTransaction(s -> {
            Map<Long, JobState> linked = links.linkedAmong(s, ids);
            Sql jobRetryMany = sql.get(AdminSql.JobRetryMany);
            PreparedStatement ps = s.prepare(jobRetryMany.text());
            jobRetryMany.setString(ps, IDS, SqliteBatch.encodeIds(ids));
            jobRetryMany.setLong(ps, NOW, Times.toMicros(now));
            long[] retried = JdbcIds.read(ps, ids.length);
            if (!linked.isEmpty()) {
                Map<Long, JobState> previous = new HashMap<>();
                for (long id : retried) {
                    JobState before = linked.get(id);
                    if (before != null) {
                        previous.put(id, before);
                    }
                }
                Links.reopen(previous, now, links.steps(s));
            }
            return retried;
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

    long[] deleteMany(long[] ids, Instant now) {
        return connections.writeTransaction(s -> {
            Map<Long, JobState> linked = links.linkedAmong(s, ids);
            Sql jobDeleteMany = sql.get(AdminSql.JobDeleteMany);
            PreparedStatement ps = s.prepare(jobDeleteMany.text());
            jobDeleteMany.setString(ps, IDS, SqliteBatch.encodeIds(ids));
            long[] deleted = JdbcIds.read(ps, ids.length);
            if (!linked.isEmpty()) {
                Map<Long, JobState> previous = new HashMap<>();
                for (long id : deleted) {
                    JobState before = linked.get(id);
                    if (before != null) {
                        previous.put(id, before);
                    }
                }
                Links.settleDeleted(previous, now, links.steps(s));
            }
            return deleted;
        });
    }
}
