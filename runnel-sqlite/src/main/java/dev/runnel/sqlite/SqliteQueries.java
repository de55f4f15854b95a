package dev.runnel.sqlite;

import static dev.runnel.sqlite.QuerySql.P.*;

import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.CreationIds;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobListScan;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The reads of {@link SqliteDriver}: jobs by id, listings and counts, from {@code query.sql}, on the reader connections. */
final class SqliteQueries {
    private final SqliteConnections connections;
    private final SqlFile<QuerySql> sql;

    SqliteQueries(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("query.sql", QuerySql.class.getResourceAsStream("query.sql"), QuerySql.class);
    }

    Optional<JobRow> get(long id) {
        return connections.read(s -> {
            Sql q = sql.get(QuerySql.JobGet);
            PreparedStatement get = s.prepare(q.text());
            q.setLong(get, ID, id);
            try (ResultSet rs = get.executeQuery()) {
                return rs.next() ? Optional.of(SqliteRows.decode(rs)) : Optional.empty();
            }
        });
    }

    List<JobRow> getMany(long[] ids) {
        if (ids.length == 0) {
            return List.of();
        }
        String json = SqliteBatch.encodeIds(ids);
        return connections.read(s -> {
            Sql q = sql.get(QuerySql.JobGetMany);
            PreparedStatement get = s.prepare(q.text());
            q.setString(get, IDS, json);
            List<JobRow> rows = new ArrayList<>(ids.length);
            try (ResultSet rs = get.executeQuery()) {
                while (rs.next()) {
                    rows.add(SqliteRows.decode(rs));
                }
            }
            return rows;
        });
    }

    List<JobRow> list(JobQuery query) {
        JobListScan whole = JobListScan.of(query);
        if (whole.empty()) {
            return List.of();
        }
        return connections.read(s -> {
            Sql first = sql.get(QuerySql.JobFirstAtOrAfter);
            JobListScan scan = CreationIds.narrow(whole, query, CreationIds.prober(first, ID, s.prepare(first.text()),
                    s.prepare(sql.get(QuerySql.JobLastId).text()), (rs, column) -> Times.fromMicros(rs.getLong(column))));
            if (scan.empty()) {
                return List.<JobRow>of();
            }
            Sql q = sql.get(scan.descending() ? QuerySql.JobListDescending : QuerySql.JobListAscending);
            PreparedStatement list = s.prepare(q.text());
            q.setLong(list, FROM_ID, scan.fromId());
            q.setLong(list, TO_ID, scan.toId());
            q.setString(list, STATES, JobJson.encodeStrings(query.states().stream().map(JobState::dbName).sorted().toList()));
            q.setString(list, QUEUES, JobJson.encodeStrings(List.copyOf(query.queues())));
            q.setString(list, KINDS, JobJson.encodeStrings(List.copyOf(query.kinds())));
            q.setString(list, TAGS, JobJson.encodeStrings(List.copyOf(query.tags())));
            q.setString(list, ARGS, query.args().orElse(null));
            setMicros(q, list, CREATED_FROM, query.createdFrom());
            setMicros(q, list, CREATED_BEFORE, query.createdBefore());
            q.setInt(list, LIMIT, query.limit());
            List<JobRow> rows = new ArrayList<>(Math.min(query.limit(), 1_000));
            try (ResultSet rs = list.executeQuery()) {
                while (rs.next()) {
                    rows.add(SqliteRows.decode(rs));
                }
            }
            return scan.inQueryOrder(rows);
        });
    }

    /** Exact whatever {@code params} allow: SQLite keeps no statistics to estimate from. */
    List<JobCount> count(JobCountParams params) {
        return connections.read(s -> {
            List<JobCount> counts = new ArrayList<>();
            try (ResultSet rs = s.prepare(sql.get(QuerySql.JobCountByState).text()).executeQuery()) {
                while (rs.next()) {
                    counts.add(new JobCount(rs.getString(1), JobState.fromDb(rs.getString(2)), rs.getLong(3)));
                }
            }
            // SQLite orders the states as text; the SPI promises them in lifecycle order.
            counts.sort(Comparator.comparing(JobCount::queue).thenComparing(JobCount::state));
            return counts;
        });
    }

    private static void setMicros(Sql q, PreparedStatement ps, QuerySql.P param, Optional<Instant> at) throws SQLException {
        if (at.isPresent()) {
            q.setLong(ps, param, Times.toMicros(at.get()));
        } else {
            q.setNull(ps, param, Types.INTEGER);
        }
    }
}
