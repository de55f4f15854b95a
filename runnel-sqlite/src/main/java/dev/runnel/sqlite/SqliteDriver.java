package dev.runnel.sqlite;

import dev.runnel.ClientRow;
import dev.runnel.InsertResult;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.RateLimit;
import dev.runnel.driver.AuditListParams;
import dev.runnel.driver.Driver;
import dev.runnel.driver.QueueLimits;
import dev.runnel.driver.RescuedJob;
import dev.runnel.driver.ClaimOrder;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientListDeadParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.ClientStopParams;
import dev.runnel.driver.JdbcIds;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobCancelRequestedParams;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobDeleteManyParams;
import dev.runnel.driver.JobGetManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobInsertTxParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.LeaderResignParams;
import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationApplyParams;
import dev.runnel.driver.MigrationFiles;
import dev.runnel.driver.MigrationRecord;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicRemoveParams;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueKeyStragglersParams;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.QueueRateLimitParams;
import dev.runnel.driver.QueueRegisterParams;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Runnel's embedded SQLite driver: a file (WAL, {@code synchronous=NORMAL}) or {@code :memory:}.
 * SQLite has one writer: every write of this process goes through one connection under a fair
 * lock, and writers in other processes are waited for with a fair retry (see
 * {@link SqliteConnections}). Inserts wake only this process; other processes find jobs by polling.
 */
public final class SqliteDriver implements Driver {
    /** Default time a write waits for another process's lock: {@value} ms. */
    public static final long DEFAULT_BUSY_TIMEOUT_MS = 10_000;
    /** Default reader connections for a file: {@value}. */
    public static final int DEFAULT_READERS = 2;

    private static final Set<String> JOB_STATEMENTS = Set.of("JobInsertMany", "JobInsertManyUniform", "JobInsertReturning", "JobUniqueHolder", "LastInsertId",
            "JobClaim", "JobClaimLimited", "JobClaimKeyed", "KeyRateClaimed", "KeyRateRead", "KeyRateWrite", "QueueRateRead", "QueueRateStarted", "JobClaimAtMostOnce", "JobClaimRecover", "JobCompleteMany", "JobSetState", "JobReinsert", "JobScheduleDue", "JobRescueMany", "JobDeleteFinalized", "JobIdRange", "JobCreatedAtFrom");

    private final SqlFile sql;
    private final List<Migration> migrations;
    private final SqliteConnections connections;
    private final SqliteCluster cluster;
    private final SqliteAdmin admin;
    private final SqliteCleaner cleaner;
    private final SqlitePeriodic periodic;
    private final SqliteAudit audit;
    private final SqliteQueries queries;
    private final SqliteMigrations migrationTable;
    private final SqliteInserts inserts;

    private SqliteDriver(String jdbcUrl, String description, Optional<Path> file, int readers, Duration busyTimeout,
            SqliteBusyWait busyWait) {
        this.sql = SqlFile.parse("job.sql", SqliteDriver.class.getResourceAsStream("job.sql"), JOB_STATEMENTS);
        this.migrations = MigrationFiles.load(name -> SqliteDriver.class.getResourceAsStream("migration/" + name));
        this.connections = new SqliteConnections(jdbcUrl, description, file, readers, busyTimeout, busyWait);
        this.inserts = new SqliteInserts(sql, connections);
        this.cluster = new SqliteCluster(connections);
        this.admin = new SqliteAdmin(connections);
        this.cleaner = new SqliteCleaner(connections, sql);
        this.periodic = new SqlitePeriodic(connections);
        this.audit = new SqliteAudit(connections);
        this.queries = new SqliteQueries(connections);
        this.migrationTable = new SqliteMigrations(connections);
    }

    /** Opens (creating if needed) the database file at {@code file}. */
    public static SqliteDriver open(Path file) {
        return open(file, Duration.ofMillis(DEFAULT_BUSY_TIMEOUT_MS));
    }

    /** Opens the database file at {@code file}, waiting up to {@code busyTimeout} for other processes' locks. */
    public static SqliteDriver open(Path file, Duration busyTimeout) {
        return open(file, busyTimeout, SqliteBusyWait.FAIR);
    }

    /** Opens the database file at {@code file}, waiting up to {@code busyTimeout} for other processes' locks as {@code busyWait} says. */
    public static SqliteDriver open(Path file, Duration busyTimeout, SqliteBusyWait busyWait) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("SQLite database directory does not exist: " + parent);
        }
        if (busyTimeout.isNegative() || busyWait == null) {
            throw new IllegalArgumentException("need a busy wait and a busy timeout of 0 or more, was " + busyTimeout);
        }
        return new SqliteDriver("jdbc:sqlite:" + file, file.toString(), Optional.of(file.toAbsolutePath()),
                DEFAULT_READERS, busyTimeout, busyWait);
    }

    /** Opens a new, private in-memory database; it lives as long as this driver. */
    public static SqliteDriver openMemory() {
        return new SqliteDriver("jdbc:sqlite::memory:", ":memory:", Optional.empty(), 0,
                Duration.ofMillis(DEFAULT_BUSY_TIMEOUT_MS), SqliteBusyWait.FAIR);
    }

    /**
     * Opens {@code sqlite://path/to/file.db} (relative), {@code sqlite:///absolute/path.db} or
     * {@code sqlite://:memory:}, with optional {@code ?busy=fair|native&busy_timeout=5s} (see {@link SqliteBusyWait}).
     */
    public static SqliteDriver open(String url) {
        SqliteUrl parsed = SqliteUrl.parse(url);
        return parsed.memory() ? openMemory() : open(Path.of(parsed.path()), parsed.busyTimeout(), parsed.busyWait());
    }

    @Override
    public String name() {
        return "sqlite";
    }

    // ---- migrations ----

    @Override
    public List<Migration> migrations() {
        return migrations;
    }

    @Override
    public List<MigrationRecord> migrationApplied() {
        return migrationTable.applied();
    }

    @Override
    public boolean migrationApply(MigrationApplyParams params) {
        return migrationTable.apply(params.migration(), params.up());
    }

    // ---- jobs ----

    @Override
    public List<InsertResult> jobInsertMany(List<JobInsertParams> jobs) {
        return inserts.insertMany(jobs);
    }

    @Override
    public List<InsertResult> jobInsertManyTx(JobInsertTxParams params) {
        return inserts.insertManyTx(params.connection(), params.jobs());
    }

    @Override
    public List<JobRow> jobClaim(JobClaimParams params) {
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

    @Override
    public List<JobRow> jobClaimRecover(JobClaimParams params) {
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

    @Override
    public long[] jobCompleteMany(JobCompleteManyParams params) {
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

    @Override
    public long[] jobSetStateMany(List<JobSetStateParams> updates) {
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

    @Override
    public void jobReinsertMany(List<JobReinsertParams> jobs) {
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

    @Override
    public int jobScheduleDue(JobScheduleParams params) {
        return connections.write(s -> {
            PreparedStatement schedule = s.prepare(sql.get("JobScheduleDue"));
            schedule.setLong(1, Times.toMicros(params.now()));
            schedule.setInt(2, params.limit());
            return schedule.executeUpdate();
        });
    }

    @Override
    public List<RescuedJob> jobRescueMany(JobRescueParams p) {
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

    @Override
    public int jobDeleteFinalized(JobDeleteFinalizedParams params) {
        return cleaner.deleteFinalized(params);
    }

    // ---- administration ----

    @Override
    public long[] jobCancelMany(JobCancelParams params) {
        return admin.cancelMany(params);
    }

    @Override
    public long[] jobCancelRequested(JobCancelRequestedParams params) {
        return admin.cancelRequested(params.ids());
    }

    @Override
    public long[] jobRetryMany(JobRetryManyParams params) {
        return admin.retryMany(params.ids(), params.now());
    }

    @Override
    public Optional<Long> jobUniqueHolder(long id) {
        return admin.uniqueHolder(id);
    }

    @Override
    public long[] jobDeleteMany(JobDeleteManyParams params) {
        return admin.deleteMany(params.ids());
    }

    // ---- clients and the leader ----

    @Override
    public void clientHeartbeat(ClientHeartbeatParams params) {
        cluster.heartbeat(params);
    }

    @Override
    public void clientStop(ClientStopParams params) {
        cluster.stop(params.id(), params.now());
    }

    @Override
    public List<ClientRow> clientList() {
        return cluster.list();
    }

    @Override
    public List<String> clientListDead(ClientListDeadParams params) {
        return cluster.listDead(params.now());
    }

    @Override
    public void clientMarkRescued(ClientRescuedParams params) {
        cluster.markRescued(params);
    }

    @Override
    public int clientDeleteExpired(ClientDeleteParams params) {
        return cluster.deleteExpired(params);
    }

    @Override
    public boolean leaderAttemptElect(LeaderElectParams params) {
        return cluster.attemptElect(params);
    }

    @Override
    public void leaderResign(LeaderResignParams params) {
        cluster.resign(params.leaderId());
    }

    @Override
    public Optional<LeaderRow> leaderGet() {
        return cluster.leader();
    }

    // ---- queues ----

    @Override
    public void queueRegister(QueueRegisterParams params) {
        cluster.registerQueues(params.queues(), params.now());
    }

    @Override
    public List<QueueRow> queueList() {
        return cluster.queues();
    }

    @Override
    public List<String> queueSetPaused(QueuePauseParams params) {
        return cluster.setPaused(params);
    }

    @Override
    public boolean queueSetGlobalLimit(QueueGlobalLimitParams params) {
        return cluster.setGlobalLimit(params.queue(), params.limit(), params.now());
    }

    @Override
    public boolean queueSetRateLimit(QueueRateLimitParams params) {
        return cluster.setRateLimit(params.queue(), params.limit(), params.now());
    }

    @Override
    public boolean queueSetKeyLimit(QueueKeyLimitParams params) {
        return cluster.setKeyLimit(params.queue(), params.limit(), params.now());
    }

    @Override
    public int queueKeyStragglers(QueueKeyStragglersParams params) {
        return cluster.keyStragglers(params.since());
    }

    // ---- periodic jobs ----

    @Override
    public boolean periodicUpsert(PeriodicUpsertParams params) {
        return periodic.upsert(params);
    }

    @Override
    public List<PeriodicRow> periodicList() {
        return periodic.list();
    }

    @Override
    public boolean periodicSetPaused(PeriodicPauseParams params) {
        return periodic.setPaused(params);
    }

    @Override
    public boolean periodicRemove(PeriodicRemoveParams params) {
        return periodic.remove(params.name(), params.now());
    }

    @Override
    public boolean periodicEnqueue(PeriodicEnqueueParams params) {
        return periodic.enqueue(params);
    }

    @Override
    public long auditInsert(dev.runnel.driver.AuditInsertParams params) {
        return audit.insert(params);
    }

    @Override
    public List<dev.runnel.AuditRow> auditList(AuditListParams params) {
        return audit.list(params.beforeId(), params.limit());
    }

    // ---- reading ----

    @Override
    public Optional<JobRow> jobGet(long id) {
        return queries.get(id);
    }

    @Override
    public List<JobRow> jobGetMany(JobGetManyParams params) {
        return queries.getMany(params.ids());
    }

    @Override
    public List<JobRow> jobList(JobQuery query) {
        return queries.list(query);
    }

    @Override
    public List<JobCount> jobCountByQueueAndState(JobCountParams params) {
        return queries.count(params);
    }

    @Override
    public void close() {
        connections.close();
    }
}
