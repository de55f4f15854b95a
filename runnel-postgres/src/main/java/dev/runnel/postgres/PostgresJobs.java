package dev.runnel.postgres;

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
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The job operations of {@link PostgresDriver}, one statement each, from {@code job.sql}. Batches
 * travel as arrays (primitive ones where the values cannot be null) expanded by {@code unnest}.
 */
final class PostgresJobs {
    private static final Set<String> STATEMENTS = Set.of("JobInsertMany", "JobInsertManyUnique", "JobClaim", "JobClaimLimitLock", "JobClaimLimited", "JobClaimKeyed", "QueueRateStarted", "KeyRateStarted", "JobClaimAtMostOnce", "JobClaimRecover",
            "JobCompleteMany", "JobSetStateMany", "JobReinsertMany", "JobScheduleDue", "JobRescueMany", "JobDeleteFinalized", "JobGet", "JobGetMany");

    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile sql;
    private final ClaimCursor cursor = new ClaimCursor();
    private final CleanCursor cleanCursor = new CleanCursor();

    PostgresJobs(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("job.sql", PostgresJobs.class.getResourceAsStream("job.sql"), STATEMENTS)
                .withSchema(schema.quoted());
    }

    List<InsertResult> insertMany(List<JobInsertParams> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        return connections.run("inserting jobs", c -> insert(c, jobs));
    }

    List<InsertResult> insertManyTx(Connection connection, List<JobInsertParams> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        try {
            return insert(connection, jobs);
        } catch (SQLException e) {
            throw connections.failure("inserting jobs on the caller's connection", e);
        }
    }

    private List<InsertResult> insert(Connection c, List<JobInsertParams> jobs) throws SQLException {
        int n = jobs.size();
        String[] kinds = new String[n];
        String[] args = new String[n];
        String[] queues = new String[n];
        int[] priorities = new int[n];
        String[] states = new String[n];
        long[] createdAt = new long[n];
        long[] scheduledAt = new long[n];
        int[] maxAttempts = new int[n];
        String[] tags = new String[n];
        String[] metadata = new String[n];
        for (int i = 0; i < n; i++) {
            JobInsertParams job = jobs.get(i);
            kinds[i] = job.kind();
            args[i] = job.args();
            queues[i] = job.queue();
            priorities[i] = job.priority();
            states[i] = job.state().dbName();
            createdAt[i] = Times.toMicros(job.createdAt());
            scheduledAt[i] = Times.toMicros(job.scheduledAt());
            maxAttempts[i] = job.maxAttempts();
            tags[i] = JobJson.encodeStrings(job.tags());
            metadata[i] = job.metadata();
        }
        boolean unique = JobInsertParams.anyUnique(jobs);
        try (PreparedStatement ps = c.prepareStatement(sql.get(unique ? "JobInsertManyUnique" : "JobInsertMany"))) {
            // pgjdbc binds a primitive array given to setObject as int4[] or int8[], unboxed.
            ps.setArray(1, c.createArrayOf("text", kinds));
            ps.setArray(2, c.createArrayOf("text", args));
            ps.setArray(3, c.createArrayOf("text", queues));
            ps.setObject(4, priorities);
            ps.setArray(5, c.createArrayOf("text", states));
            ps.setObject(6, createdAt);
            ps.setObject(7, scheduledAt);
            ps.setObject(8, maxAttempts);
            ps.setArray(9, c.createArrayOf("text", tags));
            ps.setArray(10, c.createArrayOf("text", metadata));
            int p = 11;
            if (unique) {
                byte[][] keys = new byte[n][];
                Integer[] masks = new Integer[n];
                for (int i = 0; i < n; i++) {
                    JobInsertParams job = jobs.get(i);
                    keys[i] = job.uniqueKey();
                    masks[i] = job.unique() ? job.uniqueStates() : null;
                }
                ps.setArray(p++, c.createArrayOf("bytea", keys));
                ps.setArray(p++, c.createArrayOf("integer", masks));
            }
            ps.setString(p, schema.channel());
            List<InsertResult> results = new ArrayList<>(n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    results.add(new InsertResult(rs.getLong(1), unique && rs.getBoolean(2)));
                }
            }
            if (results.size() != n) {
                throw new SQLException("inserted " + results.size() + " jobs of " + n);
            }
            return results;
        }
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
        List<JobRow> jobs = claimed(params, "claiming jobs", params.atMostOnce() ? "JobClaimAtMostOnce" : "JobClaim", ps -> {
            for (int branch = 0; branch < 2; branch++) {
                int base = branch * 7;
                ps.setString(base + 1, params.queue());
                ps.setObject(base + 2, now);
                ps.setInt(base + 3, from.priority());
                ps.setObject(base + 4, fromTime);
                ps.setLong(base + 5, from.id());
                ps.setString(base + 6, params.queue());
                ps.setInt(base + 7, params.max());
            }
            ps.setInt(15, params.max());
            if (!params.atMostOnce()) {
                ps.setObject(16, now);
                ps.setString(17, params.clientId());
            }
        });
        cursor.claimed(params.queue(), from, jobs, params.max());
        return jobs;
    }

    private List<JobRow> claimLimited(JobClaimParams params) {
        OffsetDateTime now = timestamp(params.now());
        long nowMicros = Times.toMicros(params.now());
        List<JobRow> jobs = connections.transaction("claiming jobs under the queue's limit", c -> {
            Optional<RateLimit> rate = Optional.empty();
            long[] starts = new long[0];
            OptionalInt keyLimit = OptionalInt.empty();
            Optional<RateLimit> keyRate = Optional.empty();
            try (PreparedStatement lock = c.prepareStatement(sql.get("JobClaimLimitLock"))) {
                lock.setString(1, params.queue());
                try (ResultSet rs = lock.executeQuery()) {
                    if (rs.next()) {
                        rate = QueueLimits.rateLimit(rs, 1);
                        starts = longs(rs.getArray(3));
                        keyLimit = QueueLimits.optionalInt(rs, 4);
                        keyRate = QueueLimits.rateLimit(rs, 5);
                    }
                }
            }
            int room = rate.isPresent() ? Math.min(params.max(), QueueLimits.rateRoom(rate.get(), starts, nowMicros))
                    : params.max();
            if (room == 0) {
                return new ArrayList<JobRow>();
            }
            List<JobRow> rows;
            if (keyLimit.isPresent()) {
                int perKey = keyLimit.getAsInt();
                Optional<RateLimit> perKeyRate = keyRate;
                rows = claimedRows(c, params, "JobClaimKeyed", ps -> {
                    ps.setString(1, params.queue());
                    ps.setString(2, params.queue());
                    ps.setString(3, params.queue());
                    ps.setInt(4, room);
                    ps.setInt(5, room);
                    ps.setString(6, params.queue());
                    ps.setString(7, params.queue());
                    ps.setLong(8, perKeyRate.map(r -> nowMicros - r.periodMicros()).orElse(Long.MAX_VALUE));
                    ps.setString(9, params.queue());
                    ps.setObject(10, now);
                    ps.setInt(11, perKey);
                    ps.setString(12, params.queue());
                    ps.setInt(13, perKey);
                    ps.setInt(14, perKeyRate.map(RateLimit::jobs).orElse(Integer.MAX_VALUE));
                    ps.setObject(15, now);
                    ps.setString(16, params.clientId());
                });
                if (perKeyRate.isPresent() && !rows.isEmpty()) {
                    try (PreparedStatement started = c.prepareStatement(sql.get("KeyRateStarted"))) {
                        started.setString(1, params.queue());
                        started.setLong(2, nowMicros);
                        started.setObject(3, rows.stream().mapToLong(JobRow::id).toArray());
                        started.setInt(4, perKeyRate.get().jobs());
                        started.executeUpdate();
                    }
                }
            } else {
                rows = claimedRows(c, params, "JobClaimLimited", ps -> {
                    ps.setInt(1, room);
                    ps.setInt(2, room);
                    ps.setString(3, params.queue());
                    ps.setString(4, params.queue());
                    ps.setObject(5, now);
                    ps.setObject(6, now);
                    ps.setString(7, params.clientId());
                });
            }
            if (rate.isPresent() && !rows.isEmpty()) {
                try (PreparedStatement started = c.prepareStatement(sql.get("QueueRateStarted"))) {
                    started.setObject(1, QueueLimits.afterStarting(rate.get(), starts, nowMicros, rows.size()));
                    started.setString(2, params.queue());
                    started.executeUpdate();
                }
            }
            return rows;
        });
        jobs.sort(ClaimOrder.COMPARATOR);
        return jobs;
    }

    List<JobRow> claimRecover(JobClaimParams params) {
        return claimed(params, "recovering the jobs of a claim whose reply was lost", "JobClaimRecover", ps -> {
            ps.setString(1, params.queue());
            ps.setObject(2, timestamp(params.now()));
            ps.setString(3, params.clientId());
        });
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** Runs a statement that returns claimed rows; the rows in claim order. */
    private List<JobRow> claimed(JobClaimParams params, String operation, String statement, Binder binder) {
        List<JobRow> jobs = connections.run(operation, c -> claimedRows(c, params, statement, binder));
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

    private List<JobRow> claimedRows(Connection c, JobClaimParams params, String statement, Binder binder)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.get(statement))) {
            binder.bind(ps);
            List<JobRow> rows = new ArrayList<>(Math.min(params.max(), 1_000));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(PostgresRows.decodeClaimed(rs, params));
                }
            }
            return rows;
        }
    }

    long[] completeMany(JobCompleteManyParams params) {
        int n = params.size();
        if (n == 0) {
            return new long[0];
        }
        long[] ids = Arrays.copyOf(params.ids(), n);
        long[] finalizedAt = Arrays.copyOf(params.finalizedAtMicros(), n);
        int[] attempts = Arrays.copyOf(params.attempts(), n);
        long[] attemptedAt = Arrays.copyOf(params.attemptedAtMicros(), n);
        return connections.run("completing jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobCompleteMany"))) {
                ps.setObject(1, ids);
                ps.setObject(2, finalizedAt);
                ps.setObject(3, attempts);
                ps.setObject(4, attemptedAt);
                ps.setString(5, params.clientId());
                return JdbcIds.read(ps, n);
            }
        });
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
        return connections.run("recording job outcomes", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobSetStateMany"))) {
                ps.setObject(1, ids);
                ps.setObject(2, attempts);
                ps.setObject(3, attemptedAt);
                ps.setArray(4, c.createArrayOf("text", clients));
                ps.setArray(5, c.createArrayOf("text", states));
                ps.setArray(6, c.createArrayOf("int8", scheduledAt));
                ps.setArray(7, c.createArrayOf("int8", finalizedAt));
                ps.setArray(8, c.createArrayOf("text", errors));
                ps.setObject(9, attemptDeltas);
                ps.setArray(10, c.createArrayOf("text", outputs));
                return JdbcIds.read(ps, n);
            }
        });
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
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobReinsertMany"))) {
                ps.setObject(1, ids);
                ps.setArray(2, c.createArrayOf("text", kinds));
                ps.setArray(3, c.createArrayOf("text", args));
                ps.setArray(4, c.createArrayOf("text", states));
                ps.setArray(5, c.createArrayOf("text", queues));
                ps.setObject(6, priorities);
                ps.setObject(7, attempts);
                ps.setObject(8, maxAttempts);
                ps.setArray(9, c.createArrayOf("int8", attemptedAt));
                ps.setArray(10, c.createArrayOf("text", attemptedBy));
                ps.setObject(11, createdAt);
                ps.setObject(12, scheduledAt);
                ps.setObject(13, finalizedAt);
                ps.setArray(14, c.createArrayOf("text", errors));
                ps.setArray(15, c.createArrayOf("text", metadata));
                ps.setArray(16, c.createArrayOf("text", tags));
                return ps.executeUpdate();
            }
        });
    }

    int scheduleDue(JobScheduleParams params) {
        return connections.run("scheduling due jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobScheduleDue"))) {
                ps.setObject(1, timestamp(params.now()));
                ps.setInt(2, params.limit());
                ps.setString(3, schema.channel());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getInt(1) : 0;
                }
            }
        });
    }

    List<RescuedJob> rescueMany(JobRescueParams p) {
        OffsetDateTime now = timestamp(p.lease().now());
        return connections.run("rescuing jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobRescueMany"))) {
                ps.setArray(1, c.createArrayOf("text", p.deadClients().toArray()));
                ps.setObject(2, now);
                ps.setObject(3, timestamp(p.staleBefore()));
                ps.setInt(4, p.limit());
                ps.setInt(5, p.maxRescues());
                ps.setObject(6, now);
                ps.setInt(7, p.maxRescues());
                ps.setObject(8, now);
                ps.setString(9, p.lease().now().toString());
                ps.setString(10, p.threshold().toString());
                ps.setInt(11, p.maxRescues());
                ps.setString(12, p.lease().leaderId());
                ps.setObject(13, now);
                List<RescuedJob> rescued = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rescued.add(new RescuedJob(rs.getLong(1), JobState.fromDb(rs.getString(2)), rs.getString(3)));
                    }
                }
                return rescued;
            }
        });
    }

    int deleteFinalized(JobDeleteFinalizedParams p) {
        Optional<Instant> from = cleanCursor.from(p.state());
        return connections.run("deleting finished jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobDeleteFinalized"))) {
                ps.setString(1, p.state().dbName());
                // OffsetDateTime.MIN is bound as -infinity: the sweep starts before any job.
                ps.setObject(2, from.map(PostgresJobs::timestamp).orElse(OffsetDateTime.MIN));
                ps.setObject(3, timestamp(p.finalizedBefore()));
                ps.setInt(4, p.limit());
                ps.setString(5, p.lease().leaderId());
                ps.setObject(6, timestamp(p.lease().now()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    int deleted = rs.getInt(1);
                    OffsetDateTime newest = rs.getObject(2, OffsetDateTime.class);
                    cleanCursor.deleted(p.state(), from, Optional.ofNullable(newest).map(OffsetDateTime::toInstant));
                    return deleted;
                }
            }
        });
    }

    Optional<JobRow> get(long id) {
        return connections.run("reading job " + id, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobGet"))) {
                ps.setLong(1, id);
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
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobGetMany"))) {
                ps.setObject(1, ids);
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
