package dev.runnel.postgres;

import static dev.runnel.postgres.JobSql.P.*;

import dev.runnel.InsertResult;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RateLimit;
import dev.runnel.driver.ClaimOrder;
import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LimitedClaim;
import dev.runnel.driver.Links;
import dev.runnel.driver.RescuedJob;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.postgresql.PGConnection;

/**
 * The job operations of {@link PostgresDriver}, one statement each, from {@code job.sql}: inserts
 * (in {@link PostgresInserts}), claims, outcomes, scheduling, rescue and cleaning. Batches travel
 * as arrays (primitive ones where the values cannot be null) expanded by {@code unnest}.
 */
final class PostgresJobs {
    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile<JobSql> sql;
    private final ClaimCursor cursor = new ClaimCursor();
    private final CleanCursor cleanCursor = new CleanCursor();
    private final PostgresInserts inserts;
    private final PostgresLinks links;
    /** The claims and outcome writes, each after GenericPlan. */
    private final Map<JobSql, Sql> genericPlanned = new EnumMap<>(JobSql.class);

    PostgresJobs(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("job.sql", JobSql.class.getResourceAsStream("job.sql"),
                JobSql.class).withSchema(schema.quoted());
        this.inserts = new PostgresInserts(sql, schema, connections);
        this.links = new PostgresLinks(schema, connections, inserts::insert);
        Sql genericPlan = sql.get(JobSql.GenericPlan);
        for (JobSql statement : List.of(JobSql.JobClaim, JobSql.JobClaimAtMostOnce, JobSql.JobClaimKeyed,
                JobSql.JobCompleteMany, JobSql.JobCompleteDeleteMany, JobSql.JobSetStateMany)) {
            genericPlanned.put(statement, sql.get(statement).after(genericPlan));
        }
    }

    PostgresLinks links() {
        return links;
    }

    List<InsertResult> insertMany(List<JobInsertParams> jobs) {
        return inserts.insertMany(jobs);
    }

    List<InsertResult> insertManyTx(Connection connection, List<JobInsertParams> jobs) {
        return inserts.insertManyTx(connection, jobs);
    }

    List<JobRow> claim(JobClaimParams params) {
        if (params.max() <= 0) {
            return List.of();
        }
        if (params.limited()) {
            return claimLimited(params);
        }
        ClaimCursor.Position from = cursor.from(params.queue());
        OffsetDateTime now = timestamp(params.now());
        OffsetDateTime fromTime = timestamp(from.scheduledAt());
        JobSql statement = params.atMostOnce() ? JobSql.JobClaimAtMostOnce : JobSql.JobClaim;
        List<JobRow> jobs = claimed(params, "claiming jobs", statement, (q, ps) -> {
            q.setString(ps, QUEUE, params.queue());
            q.setObject(ps, NOW, now);
            q.setInt(ps, FROM_PRIORITY, from.priority());
            q.setObject(ps, FROM_SCHEDULED_AT, fromTime);
            q.setLong(ps, FROM_ID, from.id());
            q.setInt(ps, MAX, params.max());
            if (!params.atMostOnce()) {
                q.setString(ps, CLIENT_ID, params.clientId());
            }
        });
        cursor.claimed(params.queue(), from, jobs, params.max());
        return jobs;
    }

    private List<JobRow> claimLimited(JobClaimParams params) {
        OffsetDateTime now = timestamp(params.now());
        long nowMicros = Times.toMicros(params.now());
        List<JobRow> jobs = connections.transaction("claiming jobs under the queue's limit", c -> {
            LimitedClaim.Limits limits = LimitedClaim.Limits.NONE;
            Sql lockSql = sql.get(JobSql.JobClaimLimitLock);
            try (PreparedStatement lock = c.prepareStatement(lockSql.text())) {
                lockSql.setString(lock, QUEUE, params.queue());
                try (ResultSet rs = lock.executeQuery()) {
                    if (rs.next()) {
                        limits = LimitedClaim.Limits.read(rs, longs(rs.getArray(3)));
                    }
                }
            }
            return LimitedClaim.claim(limits, params.max(), nowMicros, new LimitedClaim.Steps() {
                @Override
                public List<JobRow> claim(int room) throws SQLException {
                    return claimedRows(c, params, sql.get(JobSql.JobClaimLimited), (q, ps) -> {
                        q.setInt(ps, MAX, room);
                        q.setString(ps, QUEUE, params.queue());
                        q.setObject(ps, NOW, now);
                        q.setString(ps, CLIENT_ID, params.clientId());
                    });
                }

                @Override
                public List<JobRow> claimKeyed(int room, LimitedClaim.Keyed keyed) throws SQLException {
                    return claimedRows(c, params, planned(c, JobSql.JobClaimKeyed), (q, ps) -> {
                        q.setString(ps, QUEUE, params.queue());
                        q.setInt(ps, MAX, room);
                        q.setLong(ps, KEY_RATE_SINCE, keyed.rateSinceMicros());
                        q.setObject(ps, NOW, now);
                        q.setInt(ps, KEY_LIMIT, keyed.limit());
                        q.setInt(ps, KEY_RATE_JOBS, keyed.rateJobs());
                        q.setString(ps, CLIENT_ID, params.clientId());
                    });
                }

                @Override
                public void keyRateStarted(RateLimit rate, List<JobRow> claimed, long nowUs) throws SQLException {
                    Sql q = sql.get(JobSql.KeyRateStarted);
                    try (PreparedStatement started = c.prepareStatement(q.text())) {
                        q.setString(started, QUEUE, params.queue());
                        q.setLong(started, NOW_US, nowUs);
                        q.setObject(started, IDS, claimed.stream().mapToLong(JobRow::id).toArray());
                        q.setInt(started, KEY_RATE_JOBS, rate.jobs());
                        started.executeUpdate();
                    }
                }

                @Override
                public void queueRateStarted(long[] starts) throws SQLException {
                    Sql q = sql.get(JobSql.QueueRateStarted);
                    try (PreparedStatement started = c.prepareStatement(q.text())) {
                        q.setObject(started, STARTS, starts);
                        q.setString(started, QUEUE, params.queue());
                        started.executeUpdate();
                    }
                }
            });
        });
        jobs.sort(ClaimOrder.COMPARATOR);
        return jobs;
    }

    List<JobRow> claimRecover(JobClaimParams params) {
        return claimed(params, "recovering the jobs of a claim whose reply was lost", JobSql.JobClaimRecover, (q, ps) -> {
            q.setString(ps, QUEUE, params.queue());
            q.setObject(ps, NOW, timestamp(params.now()));
            q.setString(ps, CLIENT_ID, params.clientId());
        });
    }

    List<String> queuesDue(List<String> queues, Instant now) {
        return connections.run("looking for queues with jobs due", c -> {
            Sql jobQueuesDue = sql.get(JobSql.JobQueuesDue);
            try (PreparedStatement ps = c.prepareStatement(jobQueuesDue.text())) {
                jobQueuesDue.setArray(ps, QUEUES, c.createArrayOf("text", queues.toArray()));
                jobQueuesDue.setObject(ps, NOW, timestamp(now));
                List<String> due = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        due.add(rs.getString(1));
                    }
                    return due;
                }
            }
        });
    }

    @FunctionalInterface
    private interface Binder {
        void bind(Sql statement, PreparedStatement ps) throws SQLException;
    }

    /** Runs a statement that returns claimed rows; the rows in claim order. */
    private List<JobRow> claimed(JobClaimParams params, String operation, JobSql statement, Binder binder) {
        List<JobRow> jobs = connections.run(operation, c -> claimedRows(c, params, planned(c, statement), binder));
        jobs.sort(ClaimOrder.COMPARATOR);
        return jobs;
    }

    private static long[] longs(Array array) throws SQLException {
        Long[] boxed = (Long[]) array.getArray();
        long[] values = new long[boxed.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = boxed[i];
        }
        return values;
    }

    private List<JobRow> claimedRows(Connection c, JobClaimParams params, Sql q, Binder binder)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(q.text())) {
            binder.bind(q, ps);
            List<JobRow> rows = new ArrayList<>(Math.min(params.max(), 4_096));
            PostgresRows.Claimed claimed = new PostgresRows.Claimed(params);
            try (ResultSet rs = lastResult(ps)) {
                while (rs.next()) {
                    rows.add(claimed.decode(rs));
                }
            }
            return rows;
        }
    }

    /**
     * {@code statement} as it runs on {@code c}: after {@link JobSql#GenericPlan} where it has one
     * and {@code c} prepares its statements on the server (pgjdbc's {@code prepareThreshold}), so
     * that the plan made once is kept and used again; alone where each run is planned anyway (behind
     * PgBouncer, {@code prepareThreshold=0}), as the setting would be one more statement for nothing.
     */
    private Sql planned(Connection c, JobSql statement) throws SQLException {
        Sql generic = genericPlanned.get(statement);
        return generic != null && c.unwrap(PGConnection.class).getPrepareThreshold() > 0 ? generic : sql.get(statement);
    }

    /**
     * Runs {@code ps} and returns its last result: a statement's rows come after the row of the
     * {@link JobSql#GenericPlan} sent before it.
     */
    private static ResultSet lastResult(PreparedStatement ps) throws SQLException {
        ps.execute();
        ResultSet rs = ps.getResultSet();
        while (ps.getMoreResults(Statement.KEEP_CURRENT_RESULT)) {
            if (rs != null) {
                rs.close();
            }
            rs = ps.getResultSet();
        }
        return rs;
    }

    long[] completeMany(JobCompleteManyParams params) {
        int n = params.size();
        if (n == 0) {
            return new long[0];
        }
        long[] ids = firstN(params.ids(), n);
        // A deleting completion keeps no finalisation time.
        long[] finalizedAt = params.delete() ? null : firstN(params.finalizedAtMicros(), n);
        int[] attempts = params.attempts().length == n ? params.attempts() : Arrays.copyOf(params.attempts(), n);
        long[] attemptedAt = firstN(params.attemptedAtMicros(), n);
        return connections.run("completing jobs", c -> {
            Sql q = planned(c, params.delete() ? JobSql.JobCompleteDeleteMany : JobSql.JobCompleteMany);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, ids);
                if (finalizedAt != null) {
                    q.setObject(ps, FINALIZED_AT, finalizedAt);
                }
                q.setObject(ps, ATTEMPTS, attempts);
                q.setObject(ps, ATTEMPTED_AT, attemptedAt);
                q.setString(ps, CLIENT_ID, params.clientId());
                return JdbcIds.read(lastResult(ps), n);
            }
        });
    }

    /** The first {@code n} values of {@code values}: the array itself when it holds no more (pgjdbc sends all of an array). */
    private static long[] firstN(long[] values, int n) {
        return values.length == n ? values : Arrays.copyOf(values, n);
    }

    long[] setStateMany(List<JobSetStateParams> updates) {
        if (updates.isEmpty()) {
            return new long[0];
        }
        int n = updates.size();
        long[] ids = new long[n];
        int[] attempts = new int[n];
        long[] attemptedAt = new long[n];
        String[] clients = new String[n];
        String[] states = new String[n];
        Long[] scheduledAt = new Long[n];
        Long[] finalizedAt = new Long[n];
        String[] errors = new String[n];
        int[] attemptDeltas = new int[n];
        String[] outputs = new String[n];
        for (int i = 0; i < n; i++) {
            JobSetStateParams u = updates.get(i);
            ids[i] = u.id();
            attempts[i] = u.attempt();
            attemptedAt[i] = Times.toMicros(u.attemptedAt());
            clients[i] = u.clientId();
            states[i] = u.state().dbName();
            scheduledAt[i] = micros(u.scheduledAt());
            finalizedAt[i] = micros(u.finalizedAt());
            errors[i] = u.error();
            attemptDeltas[i] = u.attemptDelta();
            outputs[i] = u.output();
        }
        if (!settles(updates)) {
            return connections.run("recording job outcomes", c -> setStates(c, n, ids, attempts, attemptedAt, clients,
                    states, scheduledAt, finalizedAt, errors, attemptDeltas, outputs));
        }
        long[] linked = updates.stream().filter(JobSetStateParams::linked).mapToLong(JobSetStateParams::id).toArray();
        return connections.transaction("recording job outcomes and what they release", c -> {
            links.lockBatchesOf(c, linked);
            long[] written = setStates(c, n, ids, attempts, attemptedAt, clients, states, scheduledAt, finalizedAt,
                    errors, attemptDeltas, outputs);
            // Settled after the outcomes' UPDATE, as statements of their own: each one's snapshot is
            // taken with the outcomes' rows locked, and sees the edges that inserts which had locked
            // them first added (link.sql).
            Set<Long> isLinked = new HashSet<>();
            for (long id : linked) {
                isLinked.add(id);
            }
            long[] linkedWritten = Arrays.stream(written).filter(isLinked::contains).toArray();
            PostgresLinks.Finals finals = links.linkedFinal(c, linkedWritten);
            if (!finals.finished().isEmpty()) {
                Links.settle(finals.finished(), finals.latest(), links.steps(c));
            }
            return written;
        });
    }

    /**
     * Whether some of {@code updates} may leave a linked job final, whose outcome then settles what
     * waits for it in the same transaction. A retry or a snooze may too: a job whose cancel was
     * requested while it ran ends cancelled instead (JobSetStateMany). Every other batch keeps the
     * one statement in autocommit.
     */
    private static boolean settles(List<JobSetStateParams> updates) {
        for (JobSetStateParams u : updates) {
            if (u.linked() && u.state() != JobState.RUNNING && u.state() != JobState.PENDING) {
                return true;
            }
        }
        return false;
    }

    private long[] setStates(Connection c, int n, long[] ids, int[] attempts, long[] attemptedAt, String[] clients,
            String[] states, Long[] scheduledAt, Long[] finalizedAt, String[] errors, int[] attemptDeltas,
            String[] outputs) throws SQLException {
        Sql q = planned(c, JobSql.JobSetStateMany);
        try (PreparedStatement ps = c.prepareStatement(q.text())) {
            q.setObject(ps, IDS, ids);
            q.setObject(ps, ATTEMPTS, attempts);
            q.setObject(ps, ATTEMPTED_AT, attemptedAt);
            q.setArray(ps, CLIENT_IDS, c.createArrayOf("text", clients));
            q.setArray(ps, STATES, c.createArrayOf("text", states));
            q.setArray(ps, SCHEDULED_AT, c.createArrayOf("int8", scheduledAt));
            q.setArray(ps, FINALIZED_AT, c.createArrayOf("int8", finalizedAt));
            q.setArray(ps, ERRORS, c.createArrayOf("text", errors));
            q.setObject(ps, ATTEMPT_DELTAS, attemptDeltas);
            q.setArray(ps, OUTPUTS, c.createArrayOf("text", outputs));
            q.setString(ps, CHANNEL, schema.channel());
            return JdbcIds.read(lastResult(ps), n);
        }
    }

    void reinsertMany(List<JobReinsertParams> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        int n = jobs.size();
        long[] ids = new long[n];
        String[] kinds = new String[n];
        String[] args = new String[n];
        String[] states = new String[n];
        String[] queues = new String[n];
        int[] priorities = new int[n];
        int[] attempts = new int[n];
        int[] maxAttempts = new int[n];
        Long[] attemptedAt = new Long[n];
        String[] attemptedBy = new String[n];
        long[] createdAt = new long[n];
        long[] scheduledAt = new long[n];
        long[] finalizedAt = new long[n];
        String[] errors = new String[n];
        String[] metadata = new String[n];
        String[] tags = new String[n];
        for (int i = 0; i < n; i++) {
            JobReinsertParams r = jobs.get(i);
            JobRow job = r.job();
            ids[i] = job.id();
            kinds[i] = job.kind();
            args[i] = job.args();
            states[i] = r.state().dbName();
            queues[i] = job.queue();
            priorities[i] = job.priority();
            attempts[i] = job.attempt();
            maxAttempts[i] = job.maxAttempts();
            attemptedAt[i] = micros(job.attemptedAt().orElse(null));
            attemptedBy[i] = JobJson.encodeStrings(job.attemptedBy());
            createdAt[i] = Times.toMicros(job.createdAt());
            scheduledAt[i] = Times.toMicros(job.scheduledAt());
            finalizedAt[i] = Times.toMicros(r.finalizedAt());
            errors[i] = r.errorsJson();
            metadata[i] = job.metadata();
            tags[i] = JobJson.encodeStrings(job.tags());
        }
        connections.run("writing back jobs claimed at most once", c -> {
            Sql q = sql.get(JobSql.JobReinsertMany);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, ids);
                q.setArray(ps, KINDS, c.createArrayOf("text", kinds));
                q.setArray(ps, ARGS, c.createArrayOf("text", args));
                q.setArray(ps, STATES, c.createArrayOf("text", states));
                q.setArray(ps, QUEUES, c.createArrayOf("text", queues));
                q.setObject(ps, PRIORITIES, priorities);
                q.setObject(ps, ATTEMPTS, attempts);
                q.setObject(ps, MAX_ATTEMPTS, maxAttempts);
                q.setArray(ps, ATTEMPTED_AT, c.createArrayOf("int8", attemptedAt));
                q.setArray(ps, ATTEMPTED_BY, c.createArrayOf("text", attemptedBy));
                q.setObject(ps, CREATED_AT, createdAt);
                q.setObject(ps, SCHEDULED_AT, scheduledAt);
                q.setObject(ps, FINALIZED_AT, finalizedAt);
                q.setArray(ps, ERRORS, c.createArrayOf("text", errors));
                q.setArray(ps, METADATA, c.createArrayOf("text", metadata));
                q.setArray(ps, TAGS, c.createArrayOf("text", tags));
                return ps.executeUpdate();
            }
        });
    }

    int scheduleDue(JobScheduleParams params) {
        return connections.run("scheduling due jobs", c -> {
            Sql q = sql.get(JobSql.JobScheduleDue);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, NOW, timestamp(params.now()));
                q.setInt(ps, LIMIT, params.limit());
                q.setString(ps, CHANNEL, schema.channel());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getInt(1) : 0;
                }
            }
        });
    }

    List<RescuedJob> rescueMany(JobRescueParams p) {
        OffsetDateTime now = timestamp(p.lease().now());
        // A transaction: a rescued job discarded, if linked, settles what waits for it with it.
        return connections.transaction("rescuing jobs", c -> {
            Sql q = sql.get(JobSql.JobRescueMany);
            List<RescuedJob> rescued = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setArray(ps, DEAD_CLIENTS, c.createArrayOf("text", p.deadClients().toArray()));
                q.setObject(ps, NOW, now);
                q.setObject(ps, STALE_BEFORE, timestamp(p.staleBefore()));
                q.setInt(ps, LIMIT, p.limit());
                q.setInt(ps, MAX_RESCUES, p.maxRescues());
                q.setString(ps, NOW_TEXT, p.lease().now().toString());
                q.setString(ps, THRESHOLD, p.threshold().toString());
                q.setString(ps, LEADER_ID, p.lease().leaderId());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rescued.add(new RescuedJob(rs.getLong(1), JobState.fromDb(rs.getString(2)), rs.getString(3)));
                    }
                }
            }
            long[] discarded = rescued.stream().filter(r -> r.state() == JobState.DISCARDED)
                    .mapToLong(RescuedJob::id).toArray();
            if (discarded.length > 0) {
                PostgresLinks.Finals finals = links.linkedFinal(c, discarded);
                if (!finals.finished().isEmpty()) {
                    Links.settle(finals.finished(), p.lease().now(), links.steps(c));
                }
            }
            return rescued;
        });
    }

    int deleteFinalized(JobDeleteFinalizedParams p) {
        Optional<Instant> from = cleanCursor.from(p.state());
        record Deleted(int count, OffsetDateTime newest) {}
        // A transaction: the links of linked jobs deleted are settled and cleaned with them.
        Deleted deleted = connections.transaction("deleting finished jobs", c -> {
            Sql q = sql.get(JobSql.JobDeleteFinalized);
            long[] unlinked;
            long[] workflows;
            long[] batches;
            String[] sequences;
            Deleted result;
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setString(ps, STATE, p.state().dbName());
                // OffsetDateTime.MIN is bound as -infinity: the sweep starts before any job.
                q.setObject(ps, FROM, from.map(PostgresJobs::timestamp).orElse(OffsetDateTime.MIN));
                q.setObject(ps, BEFORE, timestamp(p.finalizedBefore()));
                q.setInt(ps, LIMIT, p.limit());
                q.setString(ps, LEADER_ID, p.lease().leaderId());
                q.setObject(ps, NOW, timestamp(p.lease().now()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    result = new Deleted(rs.getInt(1), rs.getObject(2, OffsetDateTime.class));
                    unlinked = longs(rs.getArray(3));
                    workflows = longs(rs.getArray(4));
                    batches = longs(rs.getArray(5));
                    sequences = (String[]) rs.getArray(6).getArray();
                }
            }
            if (unlinked.length > 0) {
                links.cleaned(c, unlinked, workflows, batches, sequences, p.lease().now());
            }
            return result;
        });
        cleanCursor.deleted(p.state(), from, Optional.ofNullable(deleted.newest()).map(OffsetDateTime::toInstant));
        return deleted.count();
    }

    /** Analyzes the job table when it has grown far past its planner statistics; true when it did. */
    boolean refreshStatistics() {
        return connections.run("refreshing the job table's statistics", c -> {
            try (Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery(sql.get(JobSql.JobTableGrown).text())) {
                    if (!rs.next() || !rs.getBoolean(1)) {
                        return false;
                    }
                }
                st.execute(sql.get(JobSql.JobTableAnalyze).text());
                return true;
            }
        });
    }

    Optional<JobRow> get(long id) {
        return connections.run("reading job " + id, c -> {
            Sql q = sql.get(JobSql.JobGet);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setLong(ps, ID, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(PostgresRows.decode(rs)) : Optional.empty();
                }
            }
        });
    }

    List<JobRow> getMany(long[] ids) {
        if (ids.length == 0) {
            return List.of();
        }
        return connections.run("reading jobs", c -> {
            Sql q = sql.get(JobSql.JobGetMany);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, IDS, ids);
                List<JobRow> rows = new ArrayList<>(ids.length);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(PostgresRows.decode(rs));
                    }
                }
                return rows;
            }
        });
    }

    static OffsetDateTime timestamp(Instant instant) {
        // Cut to microseconds here, as the column stores them, rather than let the server round.
        return OffsetDateTime.ofInstant(Times.truncate(instant), ZoneOffset.UTC);
    }

    private static Long micros(Instant instant) {
        return instant == null ? null : Times.toMicros(instant);
    }
}
