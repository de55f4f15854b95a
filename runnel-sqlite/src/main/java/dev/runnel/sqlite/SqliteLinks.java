package dev.runnel.sqlite;

import static dev.runnel.sqlite.LinkSql.P.*;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.runnel.BatchRow;
import dev.runnel.DependencyPolicy;
import dev.runnel.InsertResult;
import dev.runnel.JobLinks;
import dev.runnel.JobState;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.LinkListParams;
import dev.runnel.driver.Links;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Workflows, batches and sequences on SQLite: {@link Links}' steps as the statements of
 * {@code link.sql}, and the reads. Every write runs in the writer's transaction (or the caller's)
 * that stores the insert or the outcome.
 */
final class SqliteLinks {
    private final SqlFile<LinkSql> sql;
    private final SqliteConnections connections;
    private final SqliteInserts inserts;

    SqliteLinks(SqliteConnections connections, SqliteInserts inserts) {
        this.sql = SqlFile.parse("link.sql", LinkSql.class.getResourceAsStream("link.sql"), LinkSql.class);
        this.connections = connections;
        this.inserts = inserts;
    }

    LinkInserted insert(LinkInsertParams p) {
        if (p.connection() != null) {
            SqliteConnections.Session session = new SqliteConnections.Session(p.connection());
            try {
                return Links.insert(p, steps(session));
            } catch (SQLException e) {
                throw new dev.runnel.RunnelException("inserting linked jobs on the caller's connection failed: "
                        + e.getMessage(), e);
            } finally {
                session.closeStatements();
            }
        }
        return connections.writeTransaction(s -> Links.insert(p, steps(s)));
    }

    /** The steps, on {@code s}: for the driver's outcome writes to settle linked jobs in their own transaction. */
    Steps steps(SqliteConnections.Session s) {
        return new Steps(s);
    }

    /** Of jobs {@code ids}, those that are linked, with their states now (under the caller's lock). */
    Map<Long, JobState> linkedAmong(SqliteConnections.Session s, long[] ids) throws SQLException {
        Sql q = sql.get(LinkSql.LinkedAmong);
        PreparedStatement ps = s.prepare(q.text());
        q.setString(ps, IDS, SqliteBatch.encodeIds(ids));
        Map<Long, JobState> linked = new LinkedHashMap<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                linked.put(rs.getLong(1), JobState.fromDb(rs.getString(2)));
            }
        }
        return linked;
    }

    /**
     * The cleaner's part, in its write: removes the links of jobs up to {@code maxId} that it
     * deleted (at most {@code limit}), releasing what they still held (a sequence's next job held
     * by a discarded one), and the workflows, batches and sequences left with no job.
     */
    void cleanOrphans(SqliteConnections.Session s, long maxId, int limit, java.time.Instant now) throws SQLException {
        Sql clean = sql.get(LinkSql.LinkCleanOrphans);
        PreparedStatement ps = s.prepare(clean.text());
        clean.setLong(ps, MAX_ID, maxId);
        clean.setInt(ps, LIMIT, limit);
        List<Long> jobs = new ArrayList<>();
        java.util.Set<Long> workflows = new java.util.LinkedHashSet<>();
        java.util.Set<Long> batches = new java.util.LinkedHashSet<>();
        java.util.Set<String> sequences = new java.util.LinkedHashSet<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                jobs.add(rs.getLong(1));
                if (rs.getLong(2) != 0) {
                    workflows.add(rs.getLong(2));
                }
                if (rs.getLong(3) != 0) {
                    batches.add(rs.getLong(3));
                }
                if (rs.getString(4) != null) {
                    sequences.add(rs.getString(4));
                }
            }
        }
        if (jobs.isEmpty()) {
            return;
        }
        long[] ids = jobs.stream().mapToLong(Long::longValue).toArray();
        Links.settleCleaned(ids, now, steps(s));
        run(s, LinkSql.EdgesCleanOf, IDS, SqliteBatch.encodeIds(ids));
        run(s, LinkSql.WorkflowCleanEmpty, IDS, SqliteBatch.encodeIds(workflows.stream().mapToLong(Long::longValue).toArray()));
        run(s, LinkSql.BatchCleanEmpty, IDS, SqliteBatch.encodeIds(batches.stream().mapToLong(Long::longValue).toArray()));
        run(s, LinkSql.SequenceCleanGone, KEYS, JobJson.encodeStrings(List.copyOf(sequences)));
    }

    private void run(SqliteConnections.Session s, LinkSql statement, LinkSql.P param, String json) throws SQLException {
        Sql q = sql.get(statement);
        PreparedStatement ps = s.prepare(q.text());
        q.setString(ps, param, json);
        ps.executeUpdate();
    }

    // ---- reads ----

    Optional<JobLinks> linkGet(long id) {
        return connections.read(s -> {
            Sql get = sql.get(LinkSql.LinkGet);
            PreparedStatement ps = s.prepare(get.text());
            get.setLong(ps, ID, id);
            long workflow;
            String task;
            long batch;
            String sequence;
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.<JobLinks>empty();
                }
                workflow = rs.getLong(1);
                task = rs.getString(2);
                batch = rs.getLong(3);
                sequence = rs.getString(4);
            }
            return Optional.of(new JobLinks(id, workflow == 0 ? Optional.empty() : Optional.of(workflow),
                    Optional.ofNullable(task), batch == 0 ? Optional.empty() : Optional.of(batch),
                    Optional.ofNullable(sequence), ids(s, LinkSql.LinkWaitsFor, id), ids(s, LinkSql.LinkWaitedOnBy, id)));
        });
    }

    private List<Long> ids(SqliteConnections.Session s, LinkSql statement, long id) throws SQLException {
        Sql q = sql.get(statement);
        PreparedStatement ps = s.prepare(q.text());
        q.setLong(ps, ID, id);
        List<Long> ids = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    Optional<WorkflowRow> workflowGet(long id) {
        return connections.read(s -> {
            Sql get = sql.get(LinkSql.WorkflowGet);
            PreparedStatement ps = s.prepare(get.text());
            get.setLong(ps, ID, id);
            List<WorkflowRow> rows = workflows(s, ps);
            return rows.isEmpty() ? Optional.<WorkflowRow>empty() : Optional.of(rows.getFirst());
        });
    }

    List<WorkflowRow> workflowList(LinkListParams p) {
        return connections.read(s -> {
            Sql list = sql.get(LinkSql.WorkflowList);
            PreparedStatement ps = s.prepare(list.text());
            list.setLong(ps, BEFORE_ID, p.beforeId());
            list.setInt(ps, LIMIT, p.limit());
            return workflows(s, ps);
        });
    }

    private List<WorkflowRow> workflows(SqliteConnections.Session s, PreparedStatement ps) throws SQLException {
        record Head(long id, String name, Instant createdAt) {}
        List<Head> heads = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                heads.add(new Head(rs.getLong(1), rs.getString(2), Times.fromMicros(rs.getLong(3))));
            }
        }
        if (heads.isEmpty()) {
            return List.of();
        }
        Map<Long, Map<JobState, Integer>> counts = new HashMap<>();
        Map<Long, Integer> deleted = new HashMap<>();
        Sql q = sql.get(LinkSql.WorkflowCounts);
        PreparedStatement c = s.prepare(q.text());
        q.setString(c, IDS, SqliteBatch.encodeIds(heads.stream().mapToLong(Head::id).toArray()));
        try (ResultSet rs = c.executeQuery()) {
            while (rs.next()) {
                String state = rs.getString(2);
                if (state.equals(Links.DELETED)) {
                    deleted.put(rs.getLong(1), rs.getInt(3));
                } else {
                    counts.computeIfAbsent(rs.getLong(1), k -> new EnumMap<>(JobState.class))
                            .put(JobState.fromDb(state), rs.getInt(3));
                }
            }
        }
        List<WorkflowRow> rows = new ArrayList<>(heads.size());
        for (Head h : heads) {
            rows.add(new WorkflowRow(h.id(), h.name(), h.createdAt(), counts.getOrDefault(h.id(), Map.of()),
                    deleted.getOrDefault(h.id(), 0)));
        }
        return rows;
    }

    List<WorkflowTaskRow> workflowTasks(long id) {
        return connections.read(s -> {
            Map<Long, List<String>> after = new HashMap<>();
            Sql deps = sql.get(LinkSql.WorkflowTaskDeps);
            PreparedStatement d = s.prepare(deps.text());
            deps.setLong(d, ID, id);
            try (ResultSet rs = d.executeQuery()) {
                while (rs.next()) {
                    after.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(rs.getString(2));
                }
            }
            Sql tasks = sql.get(LinkSql.WorkflowTasks);
            PreparedStatement t = s.prepare(tasks.text());
            tasks.setLong(t, ID, id);
            List<WorkflowTaskRow> rows = new ArrayList<>();
            try (ResultSet rs = t.executeQuery()) {
                while (rs.next()) {
                    long jobId = rs.getLong(2);
                    String state = rs.getString(4);
                    rows.add(new WorkflowTaskRow(rs.getString(1), jobId, rs.getString(3),
                            state == null ? Optional.empty() : Optional.of(JobState.fromDb(state)),
                            after.getOrDefault(jobId, List.of()),
                            Links.RUN.equals(rs.getString(5)) ? DependencyPolicy.RUN : DependencyPolicy.CANCEL,
                            Optional.ofNullable(rs.getString(6))));
                }
            }
            return rows;
        });
    }

    Optional<BatchRow> batchGet(long id) {
        return connections.read(s -> {
            Sql get = sql.get(LinkSql.BatchGet);
            PreparedStatement ps = s.prepare(get.text());
            get.setLong(ps, ID, id);
            List<BatchRow> rows = batches(ps);
            return rows.isEmpty() ? Optional.<BatchRow>empty() : Optional.of(rows.getFirst());
        });
    }

    List<BatchRow> batchList(LinkListParams p) {
        return connections.read(s -> {
            Sql list = sql.get(LinkSql.BatchList);
            PreparedStatement ps = s.prepare(list.text());
            list.setLong(ps, BEFORE_ID, p.beforeId());
            list.setInt(ps, LIMIT, p.limit());
            return batches(ps);
        });
    }

    private static List<BatchRow> batches(PreparedStatement ps) throws SQLException {
        List<BatchRow> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(new BatchRow(rs.getLong(1), Optional.ofNullable(rs.getString(2)), Times.fromMicros(rs.getLong(3)),
                        rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), callback(rs, 9),
                        callback(rs, 10), callback(rs, 11)));
            }
        }
        return rows;
    }

    private static Optional<Long> callback(ResultSet rs, int column) throws SQLException {
        long id = rs.getLong(column);
        return id > 0 ? Optional.of(id) : Optional.empty();
    }

    // ---- the steps ----

    /** {@link Links}' steps on one session, inside its transaction. */
    final class Steps implements Links.InsertSteps {
        private final SqliteConnections.Session s;

        Steps(SqliteConnections.Session s) {
            this.s = s;
        }

        private PreparedStatement prepare(LinkSql statement) throws SQLException {
            return s.prepare(sql.get(statement).text());
        }

        private Sql q(LinkSql statement) {
            return sql.get(statement);
        }

        @Override
        public long workflowCreate(String name, long nowMicros) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.WorkflowCreate);
            q(LinkSql.WorkflowCreate).setString(ps, NAME, name);
            q(LinkSql.WorkflowCreate).setLong(ps, NOW, nowMicros);
            return single(ps);
        }

        @Override
        public boolean workflowExists(long id) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.WorkflowExists);
            q(LinkSql.WorkflowExists).setLong(ps, ID, id);
            return single(ps) > 0;
        }

        @Override
        public Map<String, Links.Task> workflowTasks(long workflowId, Set<String> names) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.WorkflowTasksNamed);
            q(LinkSql.WorkflowTasksNamed).setLong(ps, WORKFLOW_ID, workflowId);
            q(LinkSql.WorkflowTasksNamed).setString(ps, NAMES, JobJson.encodeStrings(List.copyOf(names)));
            Map<String, Links.Task> tasks = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String state = rs.getString(3);
                    tasks.put(rs.getString(1), new Links.Task(rs.getLong(2),
                            state == null ? Optional.empty() : Optional.of(JobState.fromDb(state))));
                }
            }
            return tasks;
        }

        @Override
        public long batchCreate(String name, String callbacks, long nowMicros) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.BatchCreate);
            q(LinkSql.BatchCreate).setString(ps, NAME, name);
            q(LinkSql.BatchCreate).setLong(ps, NOW, nowMicros);
            q(LinkSql.BatchCreate).setString(ps, CALLBACKS, callbacks);
            return single(ps);
        }

        @Override
        public boolean batchAdd(long id, int jobs) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.BatchAdd);
            q(LinkSql.BatchAdd).setInt(ps, JOBS, jobs);
            q(LinkSql.BatchAdd).setLong(ps, ID, id);
            return ps.executeUpdate() > 0;
        }

        @Override
        public Optional<Long> sequenceLast(String key) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.SequenceLast);
            q(LinkSql.SequenceLast).setString(ps, KEY, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        }

        @Override
        public void sequenceSet(String key, long jobId) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.SequenceSet);
            q(LinkSql.SequenceSet).setString(ps, KEY, key);
            q(LinkSql.SequenceSet).setLong(ps, JOB_ID, jobId);
            ps.executeUpdate();
        }

        @Override
        public Optional<JobState> jobStateLocked(long id) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.JobState);
            q(LinkSql.JobState).setLong(ps, ID, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(JobState.fromDb(rs.getString(1))) : Optional.empty();
            }
        }

        @Override
        public List<InsertResult> insertJobs(List<JobInsertParams> jobs) throws SQLException {
            return inserts.insertEach(s, jobs);
        }

        @Override
        public long insertJob(JobInsertParams job) throws SQLException {
            return insertJobs(List.of(job)).getFirst().id();
        }

        @Override
        public void insertLinks(long[] jobIds, long workflowId, String[] tasks, long[] batchIds, String[] sequenceKeys,
                String[] policies, int[] waiting) throws SQLException {
            ArrayNode links = JobJson.NODES.arrayNode();
            for (int i = 0; i < jobIds.length; i++) {
                ArrayNode row = links.addArray().add(jobIds[i]);
                if (tasks[i] != null) {
                    row.add(workflowId);
                } else {
                    row.addNull();
                }
                row.add(tasks[i]);
                if (batchIds[i] != 0) {
                    row.add(batchIds[i]);
                } else {
                    row.addNull();
                }
                row.add(sequenceKeys[i]).add(policies[i]).add(waiting[i]);
            }
            PreparedStatement ps = prepare(LinkSql.LinkInsertMany);
            q(LinkSql.LinkInsertMany).setString(ps, LINKS, links.toString());
            ps.executeUpdate();
        }

        @Override
        public void insertEdges(List<Links.Edge> edges) throws SQLException {
            if (edges.isEmpty()) {
                return;
            }
            ArrayNode json = JobJson.NODES.arrayNode();
            for (Links.Edge e : edges) {
                json.addArray().add(e.jobId()).add(e.depId()).add(e.policy());
            }
            PreparedStatement ps = prepare(LinkSql.EdgeInsertMany);
            q(LinkSql.EdgeInsertMany).setString(ps, EDGES, json.toString());
            ps.executeUpdate();
        }

        @Override
        public List<Links.BatchProgress> batchCount(List<Links.Finished> finished, int sign) throws SQLException {
            ArrayNode json = JobJson.NODES.arrayNode();
            for (Links.Finished f : finished) {
                json.addArray().add(f.id()).add(f.outcome());
            }
            PreparedStatement ps = prepare(LinkSql.BatchCount);
            q(LinkSql.BatchCount).setInt(ps, SIGN, sign);
            q(LinkSql.BatchCount).setString(ps, FINISHED, json.toString());
            List<Links.BatchProgress> batches = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    batches.add(new Links.BatchProgress(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                            rs.getLong(5), rs.getLong(6), rs.getString(7), rs.getBoolean(8), rs.getBoolean(9),
                            rs.getBoolean(10)));
                }
            }
            return batches;
        }

        @Override
        public void batchFired(long batchId, String callback, long jobId) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.BatchFired);
            q(LinkSql.BatchFired).setString(ps, CALLBACK, callback);
            q(LinkSql.BatchFired).setLong(ps, JOB_ID, jobId);
            q(LinkSql.BatchFired).setLong(ps, ID, batchId);
            ps.executeUpdate();
        }

        @Override
        public List<Links.Edge> openEdges(long[] depIds) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.EdgesOpen);
            q(LinkSql.EdgesOpen).setString(ps, IDS, SqliteBatch.encodeIds(depIds));
            List<Links.Edge> edges = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    edges.add(new Links.Edge(rs.getLong(1), rs.getLong(2), rs.getString(3)));
                }
            }
            return edges;
        }

        @Override
        public void closeEdges(List<Links.Edge> edges) throws SQLException {
            setEdges(LinkSql.EdgesClose, edges);
        }

        private void setEdges(LinkSql statement, List<Links.Edge> edges) throws SQLException {
            if (edges.isEmpty()) {
                return;
            }
            ArrayNode json = JobJson.NODES.arrayNode();
            for (Links.Edge e : edges) {
                json.addArray().add(e.jobId()).add(e.depId());
            }
            PreparedStatement ps = prepare(statement);
            q(statement).setString(ps, EDGES, json.toString());
            ps.executeUpdate();
        }

        @Override
        public List<Links.Waiting> decrement(long[] jobIds, int[] by) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.WaitingDecrement);
            q(LinkSql.WaitingDecrement).setString(ps, BY, pairs(jobIds, by));
            List<Links.Waiting> waiting = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    waiting.add(new Links.Waiting(rs.getLong(1), rs.getInt(2)));
                }
            }
            return waiting;
        }

        @Override
        public List<Links.Released> release(long[] ids, long nowMicros) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.PendingRelease);
            q(LinkSql.PendingRelease).setLong(ps, NOW, nowMicros);
            q(LinkSql.PendingRelease).setString(ps, IDS, SqliteBatch.encodeIds(ids));
            List<Links.Released> released = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    released.add(new Links.Released(rs.getLong(1), rs.getString(2), JobState.fromDb(rs.getString(3))));
                }
            }
            return released;
        }

        @Override
        public long[] cancelPending(long[] ids, String[] errors, long nowMicros) throws SQLException {
            ArrayNode json = JobJson.NODES.arrayNode();
            for (int i = 0; i < ids.length; i++) {
                json.addArray().add(ids[i]).add(errors[i]);
            }
            PreparedStatement ps = prepare(LinkSql.PendingCancel);
            q(LinkSql.PendingCancel).setLong(ps, NOW, nowMicros);
            q(LinkSql.PendingCancel).setString(ps, CANCELS, json.toString());
            return dev.runnel.driver.JdbcIds.read(ps, ids.length);
        }

        @Override
        public List<Links.DepState> edgesOf(long[] jobIds) throws SQLException {
            PreparedStatement ps = prepare(LinkSql.EdgesOf);
            q(LinkSql.EdgesOf).setString(ps, IDS, SqliteBatch.encodeIds(jobIds));
            List<Links.DepState> edges = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String state = rs.getString(4);
                    edges.add(new Links.DepState(rs.getLong(1), rs.getLong(2), rs.getString(3),
                            state == null ? Optional.empty() : Optional.of(JobState.fromDb(state))));
                }
            }
            return edges;
        }

        @Override
        public void reopen(List<Links.Edge> open, long[] jobIds, int[] waiting, long[] pending) throws SQLException {
            setEdges(LinkSql.EdgesReopen, open);
            if (jobIds.length > 0) {
                PreparedStatement ps = prepare(LinkSql.WaitingSet);
                q(LinkSql.WaitingSet).setString(ps, WAITING, pairs(jobIds, waiting));
                ps.executeUpdate();
            }
            if (pending.length > 0) {
                PreparedStatement ps = prepare(LinkSql.PendingMake);
                q(LinkSql.PendingMake).setString(ps, IDS, SqliteBatch.encodeIds(pending));
                ps.executeUpdate();
            }
        }

        private static String pairs(long[] ids, int[] values) {
            ArrayNode json = JobJson.NODES.arrayNode();
            for (int i = 0; i < ids.length; i++) {
                json.addArray().add(ids[i]).add(values[i]);
            }
            return json.toString();
        }

        private static long single(PreparedStatement ps) throws SQLException {
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
