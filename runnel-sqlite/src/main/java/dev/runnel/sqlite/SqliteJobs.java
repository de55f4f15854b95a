package dev.runnel.sqlite;

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
import dev.runnel.driver.QueueLimits;
import dev.runnel.driver.RescuedJob;
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
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The job operations of {@link SqliteDriver}, from {@code job.sql}: inserts (in
 * {@link SqliteInserts}), claims, outcomes, scheduling, rescue and cleaning (in
 * {@link SqliteCleaner}). Every write goes through the one writer connection.
 */
final class SqliteJobs {
    private static final Set<String> STATEMENTS = Set.of("JobInsertMany", "JobInsertManyUniform", "JobInsertReturning", "JobUniqueHolder", "LastInsertId",
            "JobClaim", "JobClaimLimited", "JobClaimKeyed", "KeyRateClaimed", "KeyRateRead", "KeyRateWrite", "QueueRateRead", "QueueRateStarted", "JobClaimAtMostOnce", "JobClaimRecover", "JobCompleteMany", "JobSetState", "JobReinsert", "JobScheduleDue", "JobRescueMany", "JobDeleteFinalized", "JobIdRange", "JobCreatedAtFrom");

    private final SqlFile sql;
    private final SqliteConnections connections;
    private final SqliteInserts inserts;
    private final SqliteCleaner cleaner;

    SqliteJobs(SqliteConnections connections) {
        this.sql = SqlFile.parse("job.sql", SqliteJobs.class.getResourceAsStream("job.sql"), STATEMENTS);
        this.connections = connections;
        this.inserts = new SqliteInserts(sql, connections);
        this.cleaner = new SqliteCleaner(connections, sql);
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
        if (params.limited() && !params.atMostOnce()) {
            jobs = connections.writeTransaction(s -> claimLimited(s, params, now));
        } else {
            jobs = connections.write(s -> {
                PreparedStatement claim;
                if (params.atMostOnce()) {
                    claim = s.prepare(sql.get("JobClaimAtMostOnce"));
                    claim.setLong(1, now);
                    claim.setString(2, params.queue());
                    claim.setInt(3, params.max());
                } else {
                    claim = s.prepare(sql.get("JobClaim"));
                    claim.setLong(1, now);
                    claim.setString(2, params.clientId());
                    claim.setString(3, params.queue());
                    claim.setInt(4, params.max());
                }
                return claimed(claim, params);
            });
        }
        jobs.sort(ClaimOrder.COMPARATOR);
        return jobs;
    }

    /** Adds the claim's starts to each of its keys' kept start times (under the writer lock). */
    private void keyRateStarted(SqliteConnections.Session s, String queue, RateLimit rate, List<JobRow> rows, long now)
            throws SQLException {
        PreparedStatement keys = s.prepare(sql.get("KeyRateClaimed"));
        keys.setString(1, SqliteBatch.encodeIds(rows.stream().mapToLong(JobRow::id).toArray()));
        java.util.Map<String, Integer> started = new java.util.LinkedHashMap<>();
        try (ResultSet rs = keys.executeQuery()) {
            while (rs.next()) {
                started.put(rs.getString(1), rs.getInt(2));
            }
        }
        PreparedStatement read = s.prepare(sql.get("KeyRateRead"));
        PreparedStatement write = s.prepare(sql.get("KeyRateWrite"));
        for (java.util.Map.Entry<String, Integer> key : started.entrySet()) {
            read.setString(1, queue);
            read.setString(2, key.getKey());
            long[] starts = new long[0];
            try (ResultSet rs = read.executeQuery()) {
                if (rs.next()) {
                    starts = SqliteBatch.decodeLongs(rs.getString(1));
                }
            }
            write.setString(1, queue);
            write.setString(2, key.getKey());
            write.setString(3, SqliteBatch.encodeIds(QueueLimits.afterStarting(rate, starts, now, key.getValue())));
            write.executeUpdate();
        }
    }

    private static List<JobRow> claimed(PreparedStatement claim, JobClaimParams params) throws SQLException {
        List<JobRow> rows = new ArrayList<>(params.max());
        try (ResultSet rs = claim.executeQuery()) {
            while (rs.next()) {
                rows.add(SqliteRows.decodeClaimed(rs, params));
            }
        }
        return rows;
    }

    /**
     * A claim under the queue's limits, in one write transaction: the rate limit's room worked
     * out from the start times kept, the global limit's in the claim statement itself.
     */
    private List<JobRow> claimLimited(SqliteConnections.Session s, JobClaimParams params, long now) throws SQLException {
        Optional<RateLimit> rate = Optional.empty();
        long[] starts = new long[0];
        OptionalInt keyLimit = OptionalInt.empty();
        Optional<RateLimit> keyRate = Optional.empty();
        PreparedStatement read = s.prepare(sql.get("QueueRateRead"));
        read.setString(1, params.queue());
        try (ResultSet rs = read.executeQuery()) {
            if (rs.next()) {
                rate = QueueLimits.rateLimit(rs, 1);
                starts = SqliteBatch.decodeLongs(rs.getString(3));
                keyLimit = QueueLimits.optionalInt(rs, 4);
                keyRate = QueueLimits.rateLimit(rs, 5);
            }
        }
        int room = rate.isPresent() ? Math.min(params.max(), QueueLimits.rateRoom(rate.get(), starts, now)) : params.max();
        if (room == 0) {
            return new ArrayList<>();
        }
        PreparedStatement claim = s.prepare(sql.get(keyLimit.isPresent() ? "JobClaimKeyed" : "JobClaimLimited"));
        claim.setLong(1, now);
        claim.setString(2, params.clientId());
        claim.setString(3, params.queue());
        claim.setInt(4, room);
        if (keyLimit.isPresent()) {
            claim.setInt(5, keyLimit.getAsInt());
            claim.setLong(6, keyRate.map(r -> now - r.periodMicros()).orElse(Long.MAX_VALUE));
            claim.setInt(7, keyRate.map(RateLimit::jobs).orElse(Integer.MAX_VALUE));
        }
        List<JobRow> rows = claimed(claim, params);
        if (keyLimit.isPresent() && keyRate.isPresent() && !rows.isEmpty()) {
            keyRateStarted(s, params.queue(), keyRate.get(), rows, now);
        }
        if (rate.isPresent() && !rows.isEmpty()) {
            PreparedStatement started = s.prepare(sql.get("QueueRateStarted"));
            started.setString(1, SqliteBatch.encodeIds(QueueLimits.afterStarting(rate.get(), starts, now, rows.size())));
            started.setString(2, params.queue());
            started.executeUpdate();
        }
        return rows;
    }

    List<JobRow> claimRecover(JobClaimParams params) {
        List<JobRow> jobs = connections.read(s -> {
            PreparedStatement recover = s.prepare(sql.get("JobClaimRecover"));
            recover.setString(1, params.queue());
            recover.setLong(2, Times.toMicros(params.now()));
            recover.setString(3, params.clientId());
            List<JobRow> rows = new ArrayList<>();
            try (ResultSet rs = recover.executeQuery()) {
                while (rs.next()) {
                    rows.add(SqliteRows.decodeClaimed(rs, params));
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
            PreparedStatement complete = s.prepare(sql.get("JobCompleteMany"));
            complete.setString(1, json);
            complete.setString(2, params.clientId());
            return JdbcIds.read(complete, n);
        });
    }

    long[] setStateMany(List<JobSetStateParams> updates) {
        return connections.writeTransaction(s -> {
            PreparedStatement set = s.prepare(sql.get("JobSetState"));
            for (JobSetStateParams u : updates) {
                set.setLong(1, u.id());
                set.setString(2, u.state().dbName());
                setMicros(set, 3, u.scheduledAt());
                setMicros(set, 4, u.finalizedAt());
                set.setInt(5, u.attemptDelta());
                set.setString(6, u.error()); // null binds SQL NULL
                set.setInt(7, u.attempt());
                set.setLong(8, Times.toMicros(u.attemptedAt()));
                set.setString(9, u.clientId());
                set.setString(10, u.output());
                set.addBatch();
            }
            int[] counts = set.executeBatch();
            return java.util.stream.IntStream.range(0, counts.length).filter(i -> counts[i] > 0)
                    .mapToLong(i -> updates.get(i).id()).toArray();
        });
    }

    void reinsertMany(List<JobReinsertParams> jobs) {
        connections.writeTransaction(s -> {
            PreparedStatement insert = s.prepare(sql.get("JobReinsert"));
            for (JobReinsertParams r : jobs) {
                JobRow job = r.job();
                insert.setLong(1, job.id());
                insert.setString(2, job.kind());
                insert.setString(3, job.args());
                insert.setString(4, r.state().dbName());
                insert.setString(5, job.queue());
                insert.setInt(6, job.priority());
                insert.setInt(7, job.attempt());
                insert.setInt(8, job.maxAttempts());
                setMicros(insert, 9, job.attemptedAt().orElse(null));
                insert.setString(10, JobJson.encodeStrings(job.attemptedBy()));
                insert.setLong(11, Times.toMicros(job.createdAt()));
                insert.setLong(12, Times.toMicros(job.scheduledAt()));
                insert.setLong(13, Times.toMicros(r.finalizedAt()));
                insert.setString(14, r.errorsJson());
                insert.setString(15, job.metadata());
                insert.setString(16, JobJson.encodeStrings(job.tags()));
                insert.addBatch();
            }
            insert.executeBatch();
            return null;
        });
    }

    private static void setMicros(PreparedStatement ps, int index, Instant at) throws SQLException {
        if (at == null) {
            ps.setNull(index, Types.INTEGER);
        } else {
            ps.setLong(index, Times.toMicros(at));
        }
    }

    int scheduleDue(JobScheduleParams params) {
        return connections.write(s -> {
            PreparedStatement schedule = s.prepare(sql.get("JobScheduleDue"));
            schedule.setLong(1, Times.toMicros(params.now()));
            schedule.setInt(2, params.limit());
            return schedule.executeUpdate();
        });
    }

    List<RescuedJob> rescueMany(JobRescueParams p) {
        long now = Times.toMicros(p.lease().now());
        return connections.write(s -> {
            PreparedStatement rescue = s.prepare(sql.get("JobRescueMany"));
            rescue.setString(1, JobJson.encodeStrings(p.deadClients()));
            rescue.setLong(2, now);
            rescue.setLong(3, Times.toMicros(p.staleBefore()));
            rescue.setInt(4, p.limit());
            rescue.setInt(5, p.maxRescues());
            rescue.setString(6, p.lease().now().toString());
            rescue.setString(7, p.lease().leaderId());
            rescue.setString(8, p.threshold().toString());
            List<RescuedJob> rescued = new ArrayList<>();
            try (ResultSet rs = rescue.executeQuery()) {
                while (rs.next()) {
                    rescued.add(new RescuedJob(rs.getLong(1), JobState.fromDb(rs.getString(2)), rs.getString(3)));
                }
            }
            return rescued;
        });
    }

    int deleteFinalized(JobDeleteFinalizedParams params) {
        return cleaner.deleteFinalized(params);
    }
}
