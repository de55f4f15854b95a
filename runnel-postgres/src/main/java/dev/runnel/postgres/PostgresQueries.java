package dev.runnel.postgres;

import static dev.runnel.postgres.QuerySql.P.*;

import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.CreationIds;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobListScan;
import dev.runnel.driver.Sql;
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
import java.util.stream.Collectors;
import org.postgresql.PGStatement;

/**
 * The listings and counts of {@link PostgresDriver}, from {@code query.sql}: what the CLI, a
 * dashboard and bulk changes by query read. None of it is on the hot path.
 */
final class PostgresQueries {
    private final PostgresConnections connections;
    private final SqlFile<QuerySql> sql;
    private final PostgresCounts counts;

    PostgresQueries(PostgresSchema schema, PostgresConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("query.sql", QuerySql.class.getResourceAsStream("query.sql"), QuerySql.class)
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
            Sql firstSql = sql.get(QuerySql.JobFirstAtOrAfter);
            try (PreparedStatement first = c.prepareStatement(firstSql.text());
                    PreparedStatement last = c.prepareStatement(sql.get(QuerySql.JobLastId).text())) {
                scan = CreationIds.narrow(whole, query,
                        CreationIds.prober(firstSql, ID, first, last, PostgresRows::instant));
            }
            if (scan.empty()) {
                return List.<JobRow>of();
            }
            Sql q = sql.get(scan.descending() ? QuerySql.JobListDescending : QuerySql.JobListAscending);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                planEachExecution(ps);
                q.setLong(ps, FROM_ID, scan.fromId());
                q.setLong(ps, TO_ID, scan.toId());
                String states = query.states().stream().map(JobState::dbName).sorted()
                        .collect(Collectors.joining(",", "{", "}"));
                q.setObject(ps, STATES, states, Types.OTHER);
                q.setArray(ps, QUEUES, texts(c, query.queues()));
                q.setArray(ps, KINDS, texts(c, query.kinds()));
                q.setArray(ps, TAGS, texts(c, query.tags()));
                q.setString(ps, ARGS, query.args().orElse(null));
                bindTime(q, ps, CREATED_FROM, query.createdFrom());
                bindTime(q, ps, CREATED_BEFORE, query.createdBefore());
                q.setInt(ps, LIMIT, query.limit());
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

    private static void bindTime(Sql q, PreparedStatement ps, QuerySql.P param, Optional<Instant> at) throws SQLException {
        if (at.isPresent()) {
            q.setObject(ps, param, PostgresJobs.timestamp(at.get()));
        } else {
            q.setNull(ps, param, Types.TIMESTAMP_WITH_TIMEZONE);
        }
    }
}
