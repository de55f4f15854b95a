package dev.runnel.sqlite;

import dev.runnel.ClientRow;
import dev.runnel.BatchRow;
import dev.runnel.InsertResult;
import dev.runnel.JobLinks;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.driver.AuditListParams;
import dev.runnel.driver.Driver;
import dev.runnel.driver.RescuedJob;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientListDeadParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.ClientStopParams;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobCancelRequestedParams;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobDeleteManyParams;
import dev.runnel.driver.JobGetManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.LinkListParams;
import dev.runnel.driver.JobInsertTxParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.LeaderResignParams;
import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationApplyParams;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

    private final SqliteConnections connections;
    private final SqliteCluster cluster;
    private final SqliteAdmin admin;
    private final SqlitePeriodic periodic;
    private final SqliteAudit audit;
    private final SqliteQueries queries;
    private final SqliteMigrations migrations;
    private final SqliteJobs jobs;

    private SqliteDriver(String jdbcUrl, String description, Optional<Path> file, int readers, Duration busyTimeout,
            SqliteBusyWait busyWait) {
        this.connections = new SqliteConnections(jdbcUrl, description, file, readers, busyTimeout, busyWait);
        this.jobs = new SqliteJobs(connections);
        this.cluster = new SqliteCluster(connections);
        this.admin = new SqliteAdmin(connections, jobs.links());
        this.periodic = new SqlitePeriodic(connections);
        this.audit = new SqliteAudit(connections);
        this.queries = new SqliteQueries(connections);
        this.migrations = new SqliteMigrations(connections);
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
        return migrations.all();
    }

    @Override
    public List<MigrationRecord> migrationApplied() {
        return migrations.applied();
    }

    @Override
    public boolean migrationApply(MigrationApplyParams params) {
        return migrations.apply(params.migration(), params.up());
    }

    // ---- jobs ----

    @Override
    public List<InsertResult> jobInsertMany(List<JobInsertParams> jobs) {
        return this.jobs.insertMany(jobs);
    }

    @Override
    public List<InsertResult> jobInsertManyTx(JobInsertTxParams params) {
        return jobs.insertManyTx(params.connection(), params.jobs());
    }

    // ---- links: workflows, batches, sequences ----

    @Override
    public boolean supportsLinks() {
        return true;
    }

    @Override
    public LinkInserted linkInsert(LinkInsertParams params) {
        return jobs.links().insert(params);
    }

    @Override
    public Optional<JobLinks> linkGet(long id) {
        return jobs.links().linkGet(id);
    }

    @Override
    public Optional<WorkflowRow> workflowGet(long id) {
        return jobs.links().workflowGet(id);
    }

    @Override
    public List<WorkflowRow> workflowList(LinkListParams params) {
        return jobs.links().workflowList(params);
    }

    @Override
    public List<WorkflowTaskRow> workflowTasks(long id) {
        return jobs.links().workflowTasks(id);
    }

    @Override
    public Optional<BatchRow> batchGet(long id) {
        return jobs.links().batchGet(id);
    }

    @Override
    public List<BatchRow> batchList(LinkListParams params) {
        return jobs.links().batchList(params);
    }

    @Override
    public List<JobRow> jobClaim(JobClaimParams params) {
        return jobs.claim(params);
    }

    @Override
    public List<JobRow> jobClaimRecover(JobClaimParams params) {
        return jobs.claimRecover(params);
    }

    @Override
    public long[] jobCompleteMany(JobCompleteManyParams params) {
        return jobs.completeMany(params);
    }

    @Override
    public long[] jobSetStateMany(List<JobSetStateParams> updates) {
        return jobs.setStateMany(updates);
    }

    @Override
    public void jobReinsertMany(List<JobReinsertParams> jobs) {
        this.jobs.reinsertMany(jobs);
    }

    @Override
    public int jobScheduleDue(JobScheduleParams params) {
        return jobs.scheduleDue(params);
    }

    @Override
    public List<RescuedJob> jobRescueMany(JobRescueParams params) {
        return jobs.rescueMany(params);
    }

    @Override
    public int jobDeleteFinalized(JobDeleteFinalizedParams params) {
        return jobs.deleteFinalized(params);
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
        return admin.deleteMany(params.ids(), params.now());
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
