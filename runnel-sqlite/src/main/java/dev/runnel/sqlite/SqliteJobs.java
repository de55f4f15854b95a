package dev.runnel.sqlite;

import static dev.runnel.sqlite.JobSql.P.*;

import dev.runnel.InsertResult;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RateLimit;
import dev.runnel.RunnelException;
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
import dev.runnel.driver.QueueLimits;
import dev.runnel.driver.RescuedJob;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The job operations of {@link SqliteDriver}, from {@code job.sql}: inserts (in
 * {@link SqliteInserts}), claims, outcomes, scheduling, rescue and cleaning (in
 * {@link SqliteCleaner}). Every write goes through the one writer connection.
 */
final class SqliteJobs {
    private final SqlFile<JobSql> sql;
    private final SqliteConnections connections;
    private final SqliteInserts inserts;
    private final SqliteCleaner cleaner;
    private final SqliteLinks links;
    /**
     * Claims of this many jobs or more: the next claim of their queue reads its rows after the
     * writer lock ({@link #claimAvailable}). For claims of 100 jobs the second statement cost more
     * than the lock time it saved (docs/benchmarks.md).
     */
    static final int READ_ROWS_AFTER = 256;
    /** The queues whose last claim took {@link #READ_ROWS_AFTER} jobs or more: a hint, never needed for correctness. */
    private final Set<String> bigClaims = ConcurrentHashMap.newKeySet();

    SqliteJobs(SqliteConnections connections) {
        this.sql = SqlFile.parse("job.sql", JobSql.class.getResourceAsStream("job.sql"), JobSql.class)
                .replacing("{jsonb_each}", connections.batchJsonEach());
        this.connections = connections;
        this.inserts = new SqliteInserts(sql, connections);
        this.links = new SqliteLinks(connections, inserts);
        this.cleaner = new SqliteCleaner(connections, sql, links);
    }

    SqliteLinks links() {
        return links;
    }

    List<InsertResult> insertMany(List<JobInsertParams> jobs) {
        return inserts.insertMany(jobs);
    }

    List<InsertResult> insertManyTx(Connection connection, List<JobInsertParams> jobs) {
        return inserts.insertManyTx(connection, jobs);
    }

    List<JobRow> claim(JobClaimParams params) {
        long now = Times.toMicros(params.now());
        List<JobRow> jobs;
        if (params.atMostOnce()) {
            jobs = connections.write(s -> {
                Sql jobClaimAtMostOnce = sql.get(JobSql.JobClaimAtMostOnce);
                PreparedStatement claim = s.prepare(jobClaimAtMostOnce.text());
                jobClaimAtMostOnce.setLong(claim, NOW, now);
                jobClaimAtMostOnce.setString(claim, QUEUE, params.queue());
                jobClaimAtMostOnce.setInt(claim, MAX, params.max());
                return claimed(claim, params);
            });
        } else if (params.limited()) {
            jobs = connections.writeTransaction(s -> claimLimited(s, params, now));
        } else {
            jobs = claimAvailable(params, now);
        }
        jobs.sort(ClaimOrder.COMPARATOR);
        return jobs;
    }

    /**
     * An at-least-once claim of a queue without limits. Reading a claim's rows through JDBC is a
     * call into SQLite for each column, and most of a big claim's time under the writer lock; so a
     * queue whose last claim took {@link #READ_ROWS_AFTER} jobs or more claims with a statement
     * that returns only the ids ({@code JobClaimIds}: SQLite computes what a statement returns
     * under the lock), and reads its rows after, on a reader connection, while others write. A small
     * claim, as of a queue that keeps up, stays one statement.
     */
    private List<JobRow> claimAvailable(JobClaimParams params, long now) {
        if (connections.hasReaders() && bigClaims.contains(params.queue())) {
            long[] ids = connections.write(
                    s -> JdbcIds.read(prepareClaim(s, JobSql.JobClaimIds, params, now, params.max()), params.max()));
            noteClaimSize(params.queue(), ids.length);
            return ids.length == 0 ? new ArrayList<>() : readClaimed(params, now, ids);
        }
        List<JobRow> jobs = connections.write(
                s -> claimed(prepareClaim(s, JobSql.JobClaim, params, now, params.max()), params));
        noteClaimSize(params.queue(), jobs.size());
        return jobs;
    }

    private void noteClaimSize(String queue, int claimed) {
        if (claimed >= READ_ROWS_AFTER) {
            bigClaims.add(queue);
        } else {
            bigClaims.remove(queue);
        }
    }

    /**
     * The rows of the jobs {@code ids} that a claim with {@code params} has just taken, read on a
     * reader connection, or on the writer's should that fail (a thread interrupted while it waits
     * for a reader, say). Should both fail, the jobs are running under this client with no one to
     * run them: the exception is one that does not say the claim did nothing, so that the producer
     * finds them again ({@code jobClaimRecover}) before it claims more.
     */
    List<JobRow> readClaimed(JobClaimParams params, long now, long[] ids) {
        SqliteConnections.Work<List<JobRow>> read = s -> {
            Sql q = sql.get(JobSql.JobClaimedRead);
            PreparedStatement statement = s.prepare(q.text());
            q.setString(statement, ONLY_CLIENT, onlyClient(params));
            q.setString(statement, IDS, SqliteBatch.encodeIds(ids));
            q.setLong(statement, NOW, now);
            q.setString(statement, CLIENT_ID, params.clientId());
            return claimed(statement, params);
        };
        try {
            return connections.read(read);
        } catch (RuntimeException onReader) {
            try {
                return connections.write(read);
            } catch (RuntimeException e) {
                e.addSuppressed(onReader);
                throw new RunnelException("claimed " + ids.length + " jobs of queue " + params.queue()
                        + " but could not read them: " + e.getMessage(), e);
            }
        }
    }

    /** Adds the claim's starts to each of its keys' kept start times (under the writer lock). */
    private void keyRateStarted(SqliteConnections.Session s, String queue, RateLimit rate, List<JobRow> rows, long now)
            throws SQLException {
        Sql keyRateClaimed = sql.get(JobSql.KeyRateClaimed);
        PreparedStatement keys = s.prepare(keyRateClaimed.text());
        keyRateClaimed.setString(keys, IDS, SqliteBatch.encodeIds(rows.stream().mapToLong(JobRow::id).toArray()));
        java.util.Map<String, Integer> started = new java.util.LinkedHashMap<>();
        try (ResultSet rs = keys.executeQuery()) {
            while (rs.next()) {
                started.put(rs.getString(1), rs.getInt(2));
            }
        }
        Sql keyRateRead = sql.get(JobSql.KeyRateRead);
        PreparedStatement read = s.prepare(keyRateRead.text());
        Sql keyRateWrite = sql.get(JobSql.KeyRateWrite);
        PreparedStatement write = s.prepare(keyRateWrite.text());
        for (java.util.Map.Entry<String, Integer> key : started.entrySet()) {
            keyRateRead.setString(read, QUEUE, queue);
            keyRateRead.setString(read, KEY, key.getKey());
            long[] starts = new long[0];
            try (ResultSet rs = read.executeQuery()) {
                if (rs.next()) {
                    starts = SqliteBatch.decodeLongs(rs.getString(1));
                }
            }
            keyRateWrite.setString(write, QUEUE, queue);
            keyRateWrite.setString(write, KEY, key.getKey());
            keyRateWrite.setString(write, STARTS, SqliteBatch.encodeIds(QueueLimits.afterStarting(rate, starts, now, key.getValue())));
            write.executeUpdate();
        }
    }

    private static List<JobRow> claimed(PreparedStatement claim, JobClaimParams params) throws SQLException {
        List<JobRow> rows = new ArrayList<>(params.max());
        SqliteRows.Claimed claimed = new SqliteRows.Claimed(params);
        try (ResultSet rs = claim.executeQuery()) {
            while (rs.next()) {
                rows.add(claimed.decode(rs));
            }
        }
        return rows;
    }

    /**
     * A claim under the queue's limits, in one write transaction (LimitedClaim): the rate limit's
     * room worked out from the start times kept, the global limit's in the claim statement itself.
     */
    private List<JobRow> claimLimited(SqliteConnections.Session s, JobClaimParams params, long now) throws SQLException {
        LimitedClaim.Limits limits = LimitedClaim.Limits.NONE;
        Sql queueRateRead = sql.get(JobSql.QueueRateRead);
        PreparedStatement read = s.prepare(queueRateRead.text());
        queueRateRead.setString(read, QUEUE, params.queue());
        try (ResultSet rs = read.executeQuery()) {
            if (rs.next()) {
                limits = LimitedClaim.Limits.read(rs, SqliteBatch.decodeLongs(rs.getString(3)));
            }
        }
        return LimitedClaim.claim(limits, params.max(), now, new LimitedClaim.Steps() {
            @Override
            public List<JobRow> claim(int room) throws SQLException {
                return claimed(prepareClaim(s, JobSql.JobClaimLimited, params, now, room), params);
            }

            @Override
            public List<JobRow> claimKeyed(int room, LimitedClaim.Keyed keyed) throws SQLException {
                PreparedStatement claim = prepareClaim(s, JobSql.JobClaimKeyed, params, now, room);
                Sql q = sql.get(JobSql.JobClaimKeyed);
                q.setInt(claim, KEY_LIMIT, keyed.limit());
                q.setLong(claim, KEY_RATE_SINCE, keyed.rateSinceMicros());
                q.setInt(claim, KEY_RATE_JOBS, keyed.rateJobs());
                return claimed(claim, params);
            }

            @Override
            public void keyRateStarted(RateLimit rate, List<JobRow> claimed, long nowMicros) throws SQLException {
                SqliteJobs.this.keyRateStarted(s, params.queue(), rate, claimed, nowMicros);
            }

            @Override
            public void queueRateStarted(long[] starts) throws SQLException {
                Sql q = sql.get(JobSql.QueueRateStarted);
                PreparedStatement started = s.prepare(q.text());
                q.setString(started, STARTS, SqliteBatch.encodeIds(starts));
                q.setString(started, QUEUE, params.queue());
                started.executeUpdate();
            }
        });
    }

    /** A limited claim's statement, prepared, with the parameters both limited claims take bound. */
    private PreparedStatement prepareClaim(SqliteConnections.Session s, JobSql statement, JobClaimParams params,
            long now, int room) throws SQLException {
        Sql q = sql.get(statement);
        PreparedStatement claim = s.prepare(q.text());
        q.setLong(claim, NOW, now);
        q.setString(claim, CLIENT_ID, params.clientId());
        q.setString(claim, QUEUE, params.queue());
        q.setInt(claim, MAX, room);
        q.setString(claim, ONLY_CLIENT, onlyClient(params));
        return claim;
    }

    /**
     * attempted_by as it is after a job's first claim by {@code params}'s client, which claims and
     * their read-back send back as NULL (compared as text: no JSON function runs for each row).
     */
    private static String onlyClient(JobClaimParams params) {
        return JobJson.encodeStrings(List.of(params.clientId()));
    }

    List<JobRow> claimRecover(JobClaimParams params) {
        List<JobRow> jobs = connections.read(s -> {
            Sql jobClaimRecover = sql.get(JobSql.JobClaimRecover);
            PreparedStatement recover = s.prepare(jobClaimRecover.text());
            jobClaimRecover.setString(recover, QUEUE, params.queue());
            jobClaimRecover.setLong(recover, NOW, Times.toMicros(params.now()));
            jobClaimRecover.setString(recover, CLIENT_ID, params.clientId());
            List<JobRow> rows = new ArrayList<>();
            SqliteRows.Claimed claimed = new SqliteRows.Claimed(params);
            try (ResultSet rs = recover.executeQuery()) {
                while (rs.next()) {
                    rows.add(claimed.decode(rs));
                }
            }
            return rows;
        });
        jobs.sort(ClaimOrder.COMPARATOR);
        return jobs;
    }

    long[] completeMany(JobCompleteManyParams params) {
        int n = params.size();
        if (n == 0) {
            return new long[0];
        }
        String json = SqliteBatch.encodeCompletions(params);
        return connections.write(s -> {
            Sql jobCompleteMany = sql.get(params.delete() ? JobSql.JobCompleteDeleteMany : JobSql.JobCompleteMany);
            PreparedStatement complete = s.prepare(jobCompleteMany.text());
            jobCompleteMany.setString(complete, BATCH, json);
            jobCompleteMany.setString(complete, CLIENT_ID, params.clientId());
            return JdbcIds.read(complete, n);
        });
    }

    long[] setStateMany(List<JobSetStateParams> updates) {
        return connections.writeTransaction(s -> {
            Sql jobSetState = sql.get(JobSql.JobSetState);
            PreparedStatement set = s.prepare(jobSetState.text());
            for (JobSetStateParams u : updates) {
                jobSetState.setLong(set, ID, u.id());
                jobSetState.setString(set, STATE, u.state().dbName());
                setMicros(jobSetState, set, SCHEDULED_AT, u.scheduledAt());
                setMicros(jobSetState, set, FINALIZED_AT, u.finalizedAt());
                jobSetState.setInt(set, ATTEMPT_DELTA, u.attemptDelta());
                jobSetState.setString(set, ERROR, u.error()); // null binds SQL NULL
                jobSetState.setInt(set, ATTEMPT, u.attempt());
                jobSetState.setLong(set, ATTEMPTED_AT, Times.toMicros(u.attemptedAt()));
                jobSetState.setString(set, CLIENT_ID, u.clientId());
                jobSetState.setString(set, OUTPUT, u.output());
                set.addBatch();
            }
            int[] counts = set.executeBatch();
            List<Links.Finished> finished = new ArrayList<>();
            List<Long> maybeCancelled = new ArrayList<>();
            Instant at = null;
            for (int i = 0; i < counts.length; i++) {
                JobSetStateParams u = updates.get(i);
                if (counts[i] > 0 && u.linked()) {
                    at = at != null ? at : u.finalizedAt() != null ? u.finalizedAt() : u.scheduledAt();
                    if (u.state().isFinal()) {
                        finished.add(new Links.Finished(u.id(), u.state().dbName()));
                    } else {
                        maybeCancelled.add(u.id()); // a retry of a job whose cancel was requested is stored cancelled
                    }
                }
            }
            if (!maybeCancelled.isEmpty()) {
                links.linkedAmong(s, maybeCancelled.stream().mapToLong(Long::longValue).toArray()).forEach((id, now) -> {
                    if (now == JobState.CANCELLED) {
                        finished.add(new Links.Finished(id, now.dbName()));
                    }
                });
            }
            if (!finished.isEmpty()) {
                Links.settle(finished, at, links.steps(s)); // in this transaction: stored together or not at all
            }
            return java.util.stream.IntStream.range(0, counts.length).filter(i -> counts[i] > 0)
                    .mapToLong(i -> updates.get(i).id()).toArray();
        });
    }

    void reinsertMany(List<JobReinsertParams> jobs) {
        connections.writeTransaction(s -> {
            Sql jobReinsert = sql.get(JobSql.JobReinsert);
            PreparedStatement insert = s.prepare(jobReinsert.text());
            for (JobReinsertParams r : jobs) {
                JobRow job = r.job();
                jobReinsert.setLong(insert, ID, job.id());
                jobReinsert.setString(insert, KIND, job.kind());
                jobReinsert.setString(insert, ARGS, job.args());
                jobReinsert.setString(insert, STATE, r.state().dbName());
                jobReinsert.setString(insert, QUEUE, job.queue());
                jobReinsert.setInt(insert, PRIORITY, job.priority());
                jobReinsert.setInt(insert, ATTEMPT, job.attempt());
                jobReinsert.setInt(insert, MAX_ATTEMPTS, job.maxAttempts());
                setMicros(jobReinsert, insert, ATTEMPTED_AT, job.attemptedAt().orElse(null));
                jobReinsert.setString(insert, ATTEMPTED_BY, JobJson.encodeStrings(job.attemptedBy()));
                jobReinsert.setLong(insert, CREATED_AT, Times.toMicros(job.createdAt()));
                jobReinsert.setLong(insert, SCHEDULED_AT, Times.toMicros(job.scheduledAt()));
                jobReinsert.setLong(insert, FINALIZED_AT, Times.toMicros(r.finalizedAt()));
                jobReinsert.setString(insert, ERRORS, r.errorsJson());
                jobReinsert.setString(insert, METADATA, job.metadata());
                jobReinsert.setString(insert, TAGS, JobJson.encodeStrings(job.tags()));
                insert.addBatch();
            }
            insert.executeBatch();
            return null;
        });
    }

    private static void setMicros(Sql q, PreparedStatement ps, JobSql.P param, Instant at) throws SQLException {
        if (at == null) {
            q.setNull(ps, param, Types.INTEGER);
        } else {
            q.setLong(ps, param, Times.toMicros(at));
        }
    }

    int scheduleDue(JobScheduleParams params) {
        return connections.write(s -> {
            Sql jobScheduleDue = sql.get(JobSql.JobScheduleDue);
            PreparedStatement schedule = s.prepare(jobScheduleDue.text());
            jobScheduleDue.setLong(schedule, NOW, Times.toMicros(params.now()));
            jobScheduleDue.setInt(schedule, LIMIT, params.limit());
            return schedule.executeUpdate();
        });
    }

    List<RescuedJob> rescueMany(JobRescueParams p) {
        long now = Times.toMicros(p.lease().now());
        return connections.writeTransaction(s -> {
            Sql jobRescueMany = sql.get(JobSql.JobRescueMany);
            PreparedStatement rescue = s.prepare(jobRescueMany.text());
            jobRescueMany.setString(rescue, DEAD_CLIENTS, JobJson.encodeStrings(p.deadClients()));
            jobRescueMany.setLong(rescue, NOW, now);
            jobRescueMany.setLong(rescue, STALE_BEFORE, Times.toMicros(p.staleBefore()));
            jobRescueMany.setInt(rescue, LIMIT, p.limit());
            jobRescueMany.setInt(rescue, MAX_RESCUES, p.maxRescues());
            jobRescueMany.setString(rescue, NOW_TEXT, p.lease().now().toString());
            jobRescueMany.setString(rescue, LEADER_ID, p.lease().leaderId());
            jobRescueMany.setString(rescue, THRESHOLD, p.threshold().toString());
            List<RescuedJob> rescued = new ArrayList<>();
            try (ResultSet rs = rescue.executeQuery()) {
                while (rs.next()) {
                    rescued.add(new RescuedJob(rs.getLong(1), JobState.fromDb(rs.getString(2)), rs.getString(3)));
                }
            }
            long[] discarded = rescued.stream().filter(r -> r.state() == JobState.DISCARDED).mapToLong(RescuedJob::id)
                    .toArray();
            if (discarded.length > 0) {
                List<Links.Finished> finished = new ArrayList<>();
                for (long id : links.linkedAmong(s, discarded).keySet()) {
                    finished.add(new Links.Finished(id, JobState.DISCARDED.dbName()));
                }
                Links.settle(finished, p.lease().now(), links.steps(s));
            }
            return rescued;
        });
    }

    int deleteFinalized(JobDeleteFinalizedParams params) {
        return cleaner.deleteFinalized(params);
    }
}
