package dev.runnel.postgres;

import static dev.runnel.postgres.LinkSql.P.*;

import dev.runnel.InsertResult;
import dev.runnel.JobState;
import dev.runnel.RunnelException;
import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.Links;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Workflows, batches and sequences on Postgres: {@link Links}' steps as the statements of
 * {@code link.sql}, the locks the outcome writes take around them, and the reads. Every write
 * runs in the transaction (the driver's or the caller's) that stores the insert or the outcome;
 * {@code link.sql} says how concurrent writers stay apart.
 */
final class PostgresLinks {
    /**
     * How many times an insert in the driver's own transaction is tried when Postgres ends it to
     * break a deadlock or a serialization conflict ({@value}): a rare meeting of an insert locking
     * its dependencies' rows and completions releasing jobs it depends on, which a new try, with
     * the other transaction gone, gets past.
     */
    static final int INSERT_TRIES = 3;

    /** Inserts jobs on a connection, inside its transaction (PostgresJobs' insert). */
    @FunctionalInterface
    interface JobInserter {
        List<InsertResult> insert(Connection c, List<JobInsertParams> jobs) throws SQLException;
    }

    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final JobInserter inserter;
    private final SqlFile<LinkSql> sql;
    private final PostgresLinkReads reads;

    PostgresLinks(PostgresSchema schema, PostgresConnections connections, JobInserter inserter) {
        this.schema = schema;
        this.connections = connections;
        this.inserter = inserter;
        this.sql = SqlFile.parse("link.sql", LinkSql.class.getResourceAsStream("link.sql"), LinkSql.class)
                .withSchema(schema.quoted());
        this.reads = new PostgresLinkReads(connections, sql);
    }

    /** The reads of links, workflows and batches. */
    PostgresLinkReads reads() {
        return reads;
    }

    // ---- inserts ----

    LinkInserted insert(LinkInsertParams p) {
        if (p.connection() != null) {
            return insertOnCallers(p);
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return connections.transaction("inserting linked jobs", c -> insert(c, p));
            } catch (RunnelException e) {
                if (attempt == INSERT_TRIES || !PostgresConnections.conflict(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * On the caller's connection: inside its transaction, under a savepoint, so that an insert that
     * fails (a task that runs after one that does not exist, a conflict) writes nothing and leaves
     * the transaction usable; in a transaction of its own when the connection is in autocommit.
     */
    private LinkInserted insertOnCallers(LinkInsertParams p) {
        Connection c = p.connection();
        String operation = "inserting linked jobs on the caller's connection";
        try {
            if (c.getAutoCommit()) {
                c.setAutoCommit(false);
                try {
                    LinkInserted inserted = insert(c, p);
                    c.commit();
                    return inserted;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(c, null, e);
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
            }
            Savepoint savepoint = c.setSavepoint();
            try {
                LinkInserted inserted = insert(c, p);
                c.releaseSavepoint(savepoint);
                return inserted;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c, savepoint, e);
                throw e;
            }
        } catch (SQLException e) {
            throw connections.failure(operation, e);
        }
    }

    private LinkInserted insert(Connection c, LinkInsertParams p) throws SQLException {
        try {
            return Links.insert(p, new Steps(c));
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState()) && String.valueOf(e.getMessage()).contains("runnel_link_task")) {
                // Another insert added a task of the same name since this one looked.
                throw new IllegalArgumentException("workflow " + p.workflowId()
                        + " has a task of one of these names already, added by an insert at the same time: "
                        + PostgresConnections.rootMessage(e), e);
            }
            throw e;
        }
    }

    private static void rollbackQuietly(Connection c, Savepoint savepoint, Exception cause) {
        try {
            if (savepoint == null) {
                c.rollback();
            } else {
                c.rollback(savepoint);
            }
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    // ---- what the outcome writes use ----

    /** {@link Links}' steps on {@code c}, inside its transaction. */
    Steps steps(Connection c) {
        return new Steps(c);
    }

    /**
     * Locks the batches of jobs {@code ids} (linked or not), before the statement that writes
     * their outcomes: see {@code BatchLockOf}.
     */
    void lockBatchesOf(Connection c, long[] ids) throws SQLException {
        Sql q = sql.get(LinkSql.BatchLockOf);
        try (PreparedStatement ps = c.prepareStatement(q.text())) {
            q.setObject(ps, IDS, ids);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // locked
                }
            }
        }
    }

    /** Jobs that reached a final state, and the latest of their finalized times. */
    record Finals(List<Links.Finished> finished, Instant latest) {}

    /** Of jobs {@code ids}, just written in {@code c}'s transaction, those linked and final now. */
    Finals linkedFinal(Connection c, long[] ids) throws SQLException {
        Sql q = sql.get(LinkSql.LinkedFinal);
        List<Links.Finished> finished = new ArrayList<>();
        Instant latest = null;
        try (PreparedStatement ps = c.prepareStatement(q.text())) {
            q.setObject(ps, IDS, ids);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    finished.add(new Links.Finished(rs.getLong(1), rs.getString(2)));
                    OffsetDateTime at = rs.getObject(3, OffsetDateTime.class);
                    if (at != null && (latest == null || at.toInstant().isAfter(latest))) {
                        latest = at.toInstant();
                    }
                }
            }
        }
        return new Finals(finished, latest);
    }

    /** Of jobs {@code ids}, those linked, with their states, their rows locked until {@code c}'s transaction ends. */
    Map<Long, JobState> lockLinked(Connection c, long[] ids) throws SQLException {
        Sql q = sql.get(LinkSql.LinkedLock);
        Map<Long, JobState> linked = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(q.text())) {
            q.setObject(ps, IDS, ids);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    linked.put(rs.getLong(1), JobState.fromDb(rs.getString(2)));
                }
            }
        }
        return linked;
    }

    /**
     * The cleaner's part, in its transaction, once JobDeleteFinalized deleted final jobs and took
     * the link rows of those of them that were linked ({@code jobIds}, of workflows
     * {@code workflows}, batches {@code batches} and sequences {@code sequences}): releases what
     * they still held (a sequence's next job held by a discarded one), removes their edges, and
     * the workflows, batches and sequences they leave with no job.
     */
    void cleaned(Connection c, long[] jobIds, long[] workflows, long[] batches, String[] sequences, Instant now)
            throws SQLException {
        Links.settleCleaned(jobIds, now, steps(c));
        execute(c, LinkSql.EdgesCleanOf, jobIds);
        if (workflows.length > 0) {
            execute(c, LinkSql.WorkflowLock, workflows);
            execute(c, LinkSql.WorkflowCleanEmpty, workflows);
        }
        if (batches.length > 0) {
            execute(c, LinkSql.BatchLock, batches);
            execute(c, LinkSql.BatchCleanEmpty, batches);
        }
        if (sequences.length > 0) {
            Sql q = sql.get(LinkSql.SequenceCleanGone);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setArray(ps, KEYS, c.createArrayOf("text", sequences));
                q.setObject(ps, IDS, jobIds);
                ps.executeUpdate();
            }
        }
    }

    /** Runs {@code statement}, whose one parameter is {@code :ids}, for its effect. */
    private void execute(Connection c, LinkSql statement, long[] ids) throws SQLException {
        Sql q = sql.get(statement);
        try (PreparedStatement ps = c.prepareStatement(q.text())) {
            q.setObject(ps, IDS, ids);
            ps.execute();
        }
    }

    // ---- the steps ----

    /** {@link Links}' steps on one connection, inside its transaction. */
    final class Steps implements Links.InsertSteps {
        private final Connection c;

        Steps(Connection c) {
            this.c = c;
        }

        private Sql q(LinkSql statement) {
            return sql.get(statement);
        }

        @Override
        public long workflowCreate(String name, long nowMicros) throws SQLException {
            Sql q = q(LinkSql.WorkflowCreate);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setString(ps, NAME, name);
                q.setLong(ps, NOW, nowMicros);
                return single(ps);
            }
        }

        @Override
        public boolean workflowExists(long id) throws SQLException {
            Sql q = q(LinkSql.WorkflowExists);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, ID, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        }

        @Override
        public Map<String, Links.Task> workflowTasks(long workflowId, Set<String> names) throws SQLException {
            Sql q = q(LinkSql.WorkflowTasksNamed);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, WORKFLOW_ID, workflowId);
                q.setArray(ps, NAMES, c.createArrayOf("text", names.toArray()));
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
        }

        @Override
        public long batchCreate(String name, String callbacks, long nowMicros) throws SQLException {
            Sql q = q(LinkSql.BatchCreate);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setString(ps, NAME, name);
                q.setLong(ps, NOW, nowMicros);
                q.setString(ps, CALLBACKS, callbacks == null ? "{}" : callbacks);
                return single(ps);
            }
        }

        @Override
        public boolean batchAdd(long id, int jobs) throws SQLException {
            Sql q = q(LinkSql.BatchAdd);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setInt(ps, JOBS, jobs);
                q.setLong(ps, ID, id);
                return ps.executeUpdate() > 0;
            }
        }

        @Override
        public Optional<Long> sequenceLast(String key) throws SQLException {
            Sql ensure = q(LinkSql.SequenceEnsure);
            try (PreparedStatement ps = c.prepareStatement(ensure.text())) {
                ensure.setString(ps, KEY, key);
                ps.executeUpdate();
            }
            Sql last = q(LinkSql.SequenceLast);
            try (PreparedStatement ps = c.prepareStatement(last.text())) {
                last.setString(ps, KEY, key);
                try (ResultSet rs = ps.executeQuery()) {
                    long id = rs.next() ? rs.getLong(1) : 0;
                    return id == 0 ? Optional.empty() : Optional.of(id);
                }
            }
        }

        @Override
        public void sequenceSet(String key, long jobId) throws SQLException {
            Sql q = q(LinkSql.SequenceSet);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setString(ps, KEY, key);
                q.setLong(ps, JOB_ID, jobId);
                ps.executeUpdate();
            }
        }

        @Override
        public Optional<JobState> jobStateLocked(long id) throws SQLException {
            Sql q = q(LinkSql.JobStateLocked);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, ID, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(JobState.fromDb(rs.getString(1))) : Optional.empty();
                }
            }
        }

        @Override
        public List<InsertResult> insertJobs(List<JobInsertParams> jobs) throws SQLException {
            return inserter.insert(c, jobs);
        }

        @Override
        public long insertJob(JobInsertParams job) throws SQLException {
            return insertJobs(List.of(job)).getFirst().id();
        }

        @Override
        public void insertLinks(long[] jobIds, long workflowId, String[] tasks, long[] batchIds, String[] sequenceKeys,
                String[] policies, int[] waiting) throws SQLException {
            int n = jobIds.length;
            Long[] workflows = new Long[n];
            Long[] batches = new Long[n];
            for (int i = 0; i < n; i++) {
                workflows[i] = tasks[i] != null ? workflowId : null;
                batches[i] = batchIds[i] != 0 ? batchIds[i] : null;
            }
            Sql q = q(LinkSql.LinkInsertMany);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, JOB_IDS, jobIds);
                q.setArray(ps, WORKFLOW_IDS, c.createArrayOf("int8", workflows));
                q.setArray(ps, TASKS, c.createArrayOf("text", tasks));
                q.setArray(ps, BATCH_IDS, c.createArrayOf("int8", batches));
                q.setArray(ps, SEQUENCE_KEYS, c.createArrayOf("text", sequenceKeys));
                q.setArray(ps, POLICIES, c.createArrayOf("text", policies));
                q.setObject(ps, WAITING, waiting);
                ps.executeUpdate();
            }
        }

        @Override
        public void insertEdges(List<Links.Edge> edges) throws SQLException {
            if (edges.isEmpty()) {
                return;
            }
            int n = edges.size();
            long[] jobIds = new long[n];
            long[] depIds = new long[n];
            String[] policies = new String[n];
            for (int i = 0; i < n; i++) {
                Links.Edge e = edges.get(i);
                jobIds[i] = e.jobId();
                depIds[i] = e.depId();
                policies[i] = e.policy();
            }
            Sql q = q(LinkSql.EdgeInsertMany);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, JOB_IDS, jobIds);
                q.setObject(ps, DEP_IDS, depIds);
                q.setArray(ps, POLICIES, c.createArrayOf("text", policies));
                ps.executeUpdate();
            }
        }

        @Override
        public List<Links.BatchProgress> batchCount(List<Links.Finished> finished, int sign) throws SQLException {
            int n = finished.size();
            long[] ids = new long[n];
            String[] outcomes = new String[n];
            for (int i = 0; i < n; i++) {
                ids[i] = finished.get(i).id();
                outcomes[i] = finished.get(i).outcome();
            }
            Sql q = q(LinkSql.BatchCount);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, ids);
                q.setArray(ps, OUTCOMES, c.createArrayOf("text", outcomes));
                q.setInt(ps, SIGN, sign);
                List<Links.BatchProgress> batches = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        batches.add(new Links.BatchProgress(rs.getLong(1), rs.getLong(2), rs.getLong(3),
                                rs.getLong(4), rs.getLong(5), rs.getLong(6), rs.getString(7), rs.getBoolean(8),
                                rs.getBoolean(9), rs.getBoolean(10)));
                    }
                }
                return batches;
            }
        }

        @Override
        public void batchFired(long batchId, String callback, long jobId) throws SQLException {
            Sql q = q(LinkSql.BatchFired);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setString(ps, CALLBACK, callback);
                q.setLong(ps, JOB_ID, jobId);
                q.setLong(ps, ID, batchId);
                ps.executeUpdate();
            }
        }

        @Override
        public List<Links.Edge> openEdges(long[] depIds) throws SQLException {
            Sql q = q(LinkSql.EdgesOpen);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, depIds);
                List<Links.Edge> edges = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        edges.add(new Links.Edge(rs.getLong(1), rs.getLong(2), rs.getString(3)));
                    }
                }
                return edges;
            }
        }

        @Override
        public void closeEdges(List<Links.Edge> edges) throws SQLException {
            setEdges(LinkSql.EdgesClose, edges);
        }

        private void setEdges(LinkSql statement, List<Links.Edge> edges) throws SQLException {
            if (edges.isEmpty()) {
                return;
            }
            long[] jobIds = new long[edges.size()];
            long[] depIds = new long[edges.size()];
            for (int i = 0; i < jobIds.length; i++) {
                jobIds[i] = edges.get(i).jobId();
                depIds[i] = edges.get(i).depId();
            }
            Sql q = q(statement);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, JOB_IDS, jobIds);
                q.setObject(ps, DEP_IDS, depIds);
                ps.executeUpdate();
            }
        }

        @Override
        public List<Links.Waiting> decrement(long[] jobIds, int[] by) throws SQLException {
            Sql q = q(LinkSql.WaitingDecrement);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, JOB_IDS, jobIds);
                q.setObject(ps, BY, by);
                List<Links.Waiting> waiting = new ArrayList<>(jobIds.length);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        waiting.add(new Links.Waiting(rs.getLong(1), rs.getInt(2)));
                    }
                }
                return waiting;
            }
        }

        @Override
        public List<Links.Released> release(long[] ids, long nowMicros) throws SQLException {
            Sql q = q(LinkSql.PendingRelease);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, ids);
                q.setLong(ps, NOW, nowMicros);
                q.setString(ps, CHANNEL, schema.channel());
                List<Links.Released> released = new ArrayList<>(ids.length);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        released.add(new Links.Released(rs.getLong(1), rs.getString(2), JobState.fromDb(rs.getString(3))));
                    }
                }
                return released;
            }
        }

        @Override
        public long[] cancelPending(long[] ids, String[] errors, long nowMicros) throws SQLException {
            Sql q = q(LinkSql.PendingCancel);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, ids);
                q.setLong(ps, NOW, nowMicros);
                q.setArray(ps, ERRORS, c.createArrayOf("text", errors));
                return JdbcIds.read(ps, ids.length);
            }
        }

        @Override
        public List<Links.DepState> edgesOf(long[] jobIds) throws SQLException {
            Sql q = q(LinkSql.EdgesOf);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, jobIds);
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
        }

        @Override
        public void reopen(List<Links.Edge> open, long[] jobIds, int[] waiting, long[] pending) throws SQLException {
            setEdges(LinkSql.EdgesReopen, open);
            if (jobIds.length > 0) {
                Sql q = q(LinkSql.WaitingSet);
                try (PreparedStatement ps = c.prepareStatement(q.text())) {
                    q.setObject(ps, JOB_IDS, jobIds);
                    q.setObject(ps, WAITING, waiting);
                    ps.executeUpdate();
                }
            }
            if (pending.length > 0) {
                Sql q = q(LinkSql.PendingMake);
                try (PreparedStatement ps = c.prepareStatement(q.text())) {
                    q.setObject(ps, IDS, pending);
                    ps.executeUpdate();
                }
            }
        }

        private static long single(PreparedStatement ps) throws SQLException {
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
