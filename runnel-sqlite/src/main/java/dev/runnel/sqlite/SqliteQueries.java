package dev.runnel.sqlite;

import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.CreationIds;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobListScan;
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
import java.util.Set;

/** The reads of {@link SqliteDriver}: jobs by id, listings and counts, from {@code query.sql}, on the reader connections. */
final class SqliteQueries {
    private static final Set<String> STATEMENTS = Set.of("JobListAscending", "JobListDescending", "JobFirstAtOrAfter",
            "JobLastId", "JobCountByState", "JobGet", "JobGetMany");

    private final SqliteConnections connections;
    private final SqlFile sql;

    SqliteQueries(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("query.sql", SqliteQueries.class.getResourceAsStream("query.sql"), STATEMENTS);
    }

    Optional<JobRow> get(long id) {
        return connections.read(s -> {
            PreparedStatement get = s.prepare(sql.get("JobGet"));
            get.setLong(1, id);
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
            PreparedStatement get = s.prepare(sql.get("JobGetMany"));
            get.setString(1, json);
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
            JobListScan scan = CreationIds.narrow(whole, query, CreationIds.prober(s.prepare(sql.get("JobFirstAtOrAfter")),
                    s.prepare(sql.get("JobLastId")), (rs, column) -> Times.fromMicros(rs.getLong(column))));
            if (scan.empty()) {
                return List.<JobRow>of();
            }
            PreparedStatement list = s.prepare(sql.get(scan.descending() ? "JobListDescending" : "JobListAscending"));
            list.setLong(1, scan.fromId());
            list.setLong(2, scan.toId());
            list.setString(3, JobJson.encodeStrings(query.states().stream().map(JobState::dbName).sorted().toList()));
            list.setString(4, JobJson.encodeStrings(List.copyOf(query.queues())));
            list.setString(5, JobJson.encodeStrings(List.copyOf(query.kinds())));
            list.setString(6, JobJson.encodeStrings(List.copyOf(query.tags())));
            list.setString(7, query.args().orElse(null));
            setMicros(list, 8, query.createdFrom());
            setMicros(list, 9, query.createdBefore());
            list.setInt(10, query.limit());
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
            try (ResultSet rs = s.prepare(sql.get("JobCountByState")).executeQuery()) {
                while (rs.next()) {
                    counts.add(new JobCount(rs.getString(1), JobState.fromDb(rs.getString(2)), rs.getLong(3)));
                }
            }
            // SQLite orders the states as text; the SPI promises them in lifecycle order.
            counts.sort(Comparator.comparing(JobCount::queue).thenComparing(JobCount::state));
            return counts;
        });
    }

    private static void setMicros(PreparedStatement ps, int index, Optional<Instant> at) throws SQLException {
        if (at.isPresent()) {
            ps.setLong(index, Times.toMicros(at.get()));
        } else {
            ps.setNull(index, Types.INTEGER);
        }
    }
}
