package dev.runnel.postgres;

import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.CreationIds;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobListScan;
import dev.runnel.driver.SqlFile;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.postgresql.PGStatement;

/**
 * The listings and counts of {@link PostgresDriver}, from {@code query.sql}: what the CLI, a
 * dashboard and bulk changes by query read. None of it is on the hot path.
 */
final class PostgresQueries {
    private static final Set<String> STATEMENTS = Set.of("JobListAscending", "JobListDescending", "JobFirstAtOrAfter",
            "JobLastId", "JobCountExact", "JobCountNotCompleted", "JobTablePages", "JobCountSampled", "JobCountSerial",
            "JobCountTimeout", "JobCountRunning");
    private final PostgresConnections connections;
    private final SqlFile sql;
    private final PostgresCounts counts;

    PostgresQueries(PostgresSchema schema, PostgresConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("query.sql", PostgresQueries.class.getResourceAsStream("query.sql"), STATEMENTS)
                .withSchema(schema.quoted());
        this.counts = new PostgresCounts(connections, sql);
    }

    List<JobRow> list(JobQuery query) {
        JobListScan whole = JobListScan.of(query);
        if (whole.empty()) {
            return List.of();
        }
        return connections.run("listing jobs", c -> {
            JobListScan scan;
            try (PreparedStatement first = c.prepareStatement(sql.get("JobFirstAtOrAfter"));
                    PreparedStatement last = c.prepareStatement(sql.get("JobLastId"))) {
                scan = CreationIds.narrow(whole, query, CreationIds.prober(first, last, PostgresRows::instant));
            }
            if (scan.empty()) {
                return List.<JobRow>of();
            }
            try (PreparedStatement ps = c.prepareStatement(sql.get(scan.descending() ? "JobListDescending"
                    : "JobListAscending"))) {
                planEachExecution(ps);
                ps.setLong(1, scan.fromId());
                ps.setLong(2, scan.toId());
                String states = query.states().stream().map(JobState::dbName).sorted()
                        .collect(Collectors.joining(",", "{", "}"));
                ps.setObject(3, states, Types.OTHER);
                ps.setObject(4, states, Types.OTHER);
                bindTwice(ps, 5, texts(c, query.queues()));
                bindTwice(ps, 7, texts(c, query.kinds()));
                bindTwice(ps, 9, texts(c, query.tags()));
                String args = query.args().orElse(null);
                ps.setString(11, args);
                ps.setString(12, args);
                bindTime(ps, 13, query.createdFrom());
                bindTime(ps, 15, query.createdBefore());
                ps.setInt(17, query.limit());
                List<JobRow> rows = new ArrayList<>(Math.min(query.limit(), 1_000));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(PostgresRows.decode(rs));
                    }
                }
                return scan.inQueryOrder(rows);
            }
        });
    }

    List<JobCount> count(JobCountParams params) {
        return counts.count(params);
    }

    PostgresCounts counts(long samplePages, java.time.Duration exactTimeout) {
        return new PostgresCounts(connections, sql, samplePages, exactTimeout);
    }

    /**
     * Makes pgjdbc send {@code ps} as an unnamed statement each time, which the server plans with
     * the values bound: a listing's plan depends on which filters are on and how rare their values
     * are. Left as it is when the statement is not pgjdbc's (an application's pool of another make).
     */
    private static void planEachExecution(PreparedStatement ps) throws SQLException {
        if (ps.isWrapperFor(PGStatement.class)) {
            ps.unwrap(PGStatement.class).setPrepareThreshold(0);
        }
    }

    private static Array texts(Connection c, Collection<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray());
    }

    private static void bindTwice(PreparedStatement ps, int index, Array array) throws SQLException {
        ps.setArray(index, array);
        ps.setArray(index + 1, array);
    }

    private static void bindTime(PreparedStatement ps, int index, Optional<Instant> at) throws SQLException {
        if (at.isPresent()) {
            ps.setObject(index, PostgresJobs.timestamp(at.get()));
            ps.setObject(index + 1, PostgresJobs.timestamp(at.get()));
        } else {
            ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setNull(index + 1, Types.TIMESTAMP_WITH_TIMEZONE);
        }
    }
}
