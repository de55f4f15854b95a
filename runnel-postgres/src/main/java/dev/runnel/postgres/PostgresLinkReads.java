package dev.runnel.postgres;

import static dev.runnel.postgres.LinkSql.P.*;

import dev.runnel.BatchRow;
import dev.runnel.DependencyPolicy;
import dev.runnel.JobLinks;
import dev.runnel.JobState;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.driver.LinkListParams;
import dev.runnel.driver.Links;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The reads of workflows, batches and a job's links on Postgres, each one statement of {@code link.sql}. */
final class PostgresLinkReads {
    private final PostgresConnections connections;
    private final SqlFile<LinkSql> sql;

    PostgresLinkReads(PostgresConnections connections, SqlFile<LinkSql> sql) {
        this.connections = connections;
        this.sql = sql;
    }

    Optional<JobLinks> linkGet(long id) {
        return connections.run("reading the links of job " + id, c -> {
            Sql q = sql.get(LinkSql.LinkGet);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, ID, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    long workflow = rs.getLong(1);
                    String task = rs.getString(2);
                    long batch = rs.getLong(3);
                    return Optional.of(new JobLinks(id, workflow == 0 ? Optional.empty() : Optional.of(workflow),
                            Optional.ofNullable(task), batch == 0 ? Optional.empty() : Optional.of(batch),
                            Optional.ofNullable(rs.getString(4)), List.of(boxed(rs.getArray(5))),
                            List.of(boxed(rs.getArray(6)))));
                }
            }
        });
    }

    Optional<WorkflowRow> workflowGet(long id) {
        return one("reading workflow " + id, LinkSql.WorkflowGet, id, PostgresLinkReads::workflows);
    }

    List<WorkflowRow> workflowList(LinkListParams p) {
        return page("listing workflows", LinkSql.WorkflowList, p, PostgresLinkReads::workflows);
    }

    /** Reads the rows of a statement whose parameters are set. */
    @FunctionalInterface
    private interface Rows<T> {
        List<T> read(PreparedStatement ps) throws SQLException;
    }

    /** The one row {@code statement} finds by {@code :id}, if any. */
    private <T> Optional<T> one(String what, LinkSql statement, long id, Rows<T> rows) {
        return connections.run(what, c -> {
            Sql q = sql.get(statement);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, ID, id);
                return rows.read(ps).stream().findFirst();
            }
        });
    }

    /** A page of {@code statement}'s rows, newest first, before {@code p.beforeId()}. */
    private <T> List<T> page(String what, LinkSql statement, LinkListParams p, Rows<T> rows) {
        return connections.run(what, c -> {
            Sql q = sql.get(statement);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, BEFORE_ID, p.beforeId() == 0 ? Long.MAX_VALUE : p.beforeId());
                q.setInt(ps, LIMIT, p.limit());
                return rows.read(ps);
            }
        });
    }

    /** Workflows from rows of (id, name, created_at, state, count), a workflow's rows together. */
    private static List<WorkflowRow> workflows(PreparedStatement ps) throws SQLException {
        record Head(long id, String name, Instant createdAt, Map<JobState, Integer> tasks, int[] deleted) {}
        Map<Long, Head> heads = new LinkedHashMap<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong(1);
                Head h = heads.get(id);
                if (h == null) {
                    h = new Head(id, rs.getString(2), rs.getObject(3, OffsetDateTime.class).toInstant(),
                            new EnumMap<>(JobState.class), new int[1]);
                    heads.put(id, h);
                }
                String state = rs.getString(4);
                if (state == null) {
                    continue; // no tasks
                }
                if (state.equals(Links.DELETED)) {
                    h.deleted()[0] = rs.getInt(5);
                } else {
                    h.tasks().put(JobState.fromDb(state), rs.getInt(5));
                }
            }
        }
        List<WorkflowRow> rows = new ArrayList<>(heads.size());
        for (Head h : heads.values()) {
            rows.add(new WorkflowRow(h.id(), h.name(), h.createdAt(), h.tasks(), h.deleted()[0]));
        }
        return rows;
    }

    List<WorkflowTaskRow> workflowTasks(long id) {
        return connections.run("reading the tasks of workflow " + id, c -> {
            Sql q = sql.get(LinkSql.WorkflowTasks);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, ID, id);
                List<WorkflowTaskRow> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String state = rs.getString(4);
                        rows.add(new WorkflowTaskRow(rs.getString(1), rs.getLong(2), rs.getString(3),
                                state == null ? Optional.empty() : Optional.of(JobState.fromDb(state)),
                                List.of((String[]) rs.getArray(7).getArray()),
                                Links.RUN.equals(rs.getString(5)) ? DependencyPolicy.RUN : DependencyPolicy.CANCEL,
                                Optional.ofNullable(CompactJson.read(rs, 6))));
                    }
                }
                return rows;
            }
        });
    }

    Optional<BatchRow> batchGet(long id) {
        return one("reading batch " + id, LinkSql.BatchGet, id, PostgresLinkReads::batches);
    }

    List<BatchRow> batchList(LinkListParams p) {
        return page("listing batches", LinkSql.BatchList, p, PostgresLinkReads::batches);
    }

    private static List<BatchRow> batches(PreparedStatement ps) throws SQLException {
        List<BatchRow> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(new BatchRow(rs.getLong(1), Optional.ofNullable(rs.getString(2)),
                        rs.getObject(3, OffsetDateTime.class).toInstant(), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                        rs.getLong(7), rs.getLong(8), callback(rs, 9), callback(rs, 10), callback(rs, 11)));
            }
        }
        return rows;
    }

    private static Optional<Long> callback(ResultSet rs, int column) throws SQLException {
        long id = rs.getLong(column);
        return id > 0 ? Optional.of(id) : Optional.empty();
    }

    private static Long[] boxed(Array array) throws SQLException {
        return (Long[]) array.getArray();
    }
}
