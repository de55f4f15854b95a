package dev.runnel.postgres;

import dev.runnel.BatchRow;
import dev.runnel.ClientRow;
import dev.runnel.InsertResult;
import dev.runnel.JobLinks;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.SearchIndex;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.driver.AuditListParams;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientListDeadParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.ClientStopParams;
import dev.runnel.driver.RescuedJob;
import dev.runnel.driver.Driver;
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
import dev.runnel.driver.JobQueuesDueParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.LeaderResignParams;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.LinkListParams;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Runnel's Postgres driver: jobs in {@code <schema>.runnel_job}, claimed with one
 * {@code FOR UPDATE SKIP LOCKED} statement per batch, outcomes written with one statement per
 * batch, and inserts announced with LISTEN/NOTIFY.
 *
 * <pre>{@code
 * Driver driver = PostgresDriver.fromUrl("postgres://app:secret@db:5432/app?schema=jobs&sslmode=require");
 * Driver shared = PostgresDriver.fromDataSource(applicationPool);
 * Driver tuned = PostgresDriver.builder().url(url).schema("jobs").maxPoolSize(20).build();
 * }</pre>
 *
 * <p>Built from a URL, the driver owns a HikariCP pool and closes it on {@link #close()}; built
 * from a {@link DataSource}, it borrows from the application's pool and leaves it open, and its
 * settings (timeouts, keepalive, TLS) as the application made them. Every connection the driver
 * opens itself, the pool's and the listener's, has a socket timeout
 * ({@link #DEFAULT_SOCKET_TIMEOUT}) and TCP keepalive by default; pgjdbc's own
 * {@code socketTimeout} and {@code tcpKeepAlive} URL parameters override them, and the builder's
 * {@link PostgresDriverBuilder#socketTimeout} and {@link PostgresDriverBuilder#tcpKeepAlive} override the URL.
 *
 * <p>Nothing connects until the first operation. Until one connection has been made, an operation
 * first tries one connection outside the pool, so that a server that cannot be reached (refused,
 * a missing database or role, failed authentication, a bad {@code sslmode}) fails it within the
 * connect timeout with a {@link dev.runnel.RunnelConnectException} naming host, port and database
 * and the server's or the network's reason. Passwords appear in no message, log line or
 * {@code toString()}.
 *
 * <p>Workflows, batches and sequences ({@link #supportsLinks()}) keep their ties in tables of
 * their own, which plain jobs never touch: a linked job's outcome, cancel, retry or deletion
 * settles what waits for it in the transaction that writes it, and jobs it releases are announced
 * at commit like inserted ones. Every other outcome keeps its single statement in autocommit.
 */
public final class PostgresDriver implements Driver {
    /** The schema used when none is given: {@value}. */
    public static final String DEFAULT_SCHEMA = PostgresSchema.DEFAULT;
    /**
     * The default size of a pool the driver builds: {@value}. Every statement is short and holds its
     * connection only while it runs, and a small pool leaves room under Postgres' default {@code
     * max_connections} of 100 for several processes. Not yet measured: raise it when operations wait.
     */
    public static final int DEFAULT_MAX_POOL_SIZE = 10;
    /** The largest pool the builder accepts: {@value}. */
    public static final int MAX_POOL_SIZE = 1_000;
    /** How long the first operation waits for a connection by default: 10 s. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The shortest connect timeout HikariCP accepts: 250 ms. */
    public static final Duration MIN_CONNECT_TIMEOUT = Duration.ofMillis(250);
    /**
     * How long a connection the driver opens waits for the server to answer before it is given up
     * as broken, by default: 30 s (pgjdbc's {@code socketTimeout}, in whole seconds).
     *
     * <p>Every Runnel statement is short: claims and completions take milliseconds, maintenance
     * deletes run in bounded batches. The timeout is only there for a connection whose server is
     * gone without a word (a failover, a cut network, a dropped NAT entry), which would otherwise
     * block the completer or a producer forever: such a connection costs at most one timeout, and
     * its failure retires the rest of the pool (see {@link PostgresConnections}). It is long
     * rather than short because cutting a statement does not undo it: the server may still commit
     * a claim whose client has given up, leaving its jobs running until they are rescued. 30 s is
     * far above the slowest healthy statement: a wait behind another transaction's row lock, an
     * I/O stall during a checkpoint, a count over millions of rows for a dashboard. Migrations lift
     * it for their own transaction. An idle listener never meets it: while it waits for
     * notifications, pgjdbc puts the listener's own 250 ms poll in its place.
     */
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(30);
    /** The longest socket timeout the builder accepts: 24 h (pgjdbc keeps it in int milliseconds). */
    public static final Duration MAX_SOCKET_TIMEOUT = Duration.ofHours(24);
    /**
     * Whether the connections the driver opens ask the system for TCP keepalive probes by default:
     * {@value}. With the usual timing (Linux probes after 2 h idle) they find a dead peer late; they
     * keep idle connections alive in firewalls that honour them, and bound a switched-off timeout.
     */
    public static final boolean DEFAULT_TCP_KEEP_ALIVE = true;

    private final PostgresSchema schema;
    private final String description;
    private final PostgresConnections connections;
    private final PostgresJobs jobs;
    private final PostgresCluster cluster;
    private final PostgresAdmin admin;
    private final PostgresPeriodic periodic;
    private final PostgresAudit audit;
    private final PostgresQueries queries;
    private final PostgresMigrations migrations;
    private final PostgresListener.ConnectionSource listenerSource;
    private final DataSource dataSource;
    private final Set<PostgresListener> listeners = ConcurrentHashMap.newKeySet();
    private final ConnectionLoss loss;

    /**
     * @param listenerSource opens the listener's connection; null when the driver cannot listen
     *     (behind a transaction pooler with no direct URL for it), and then the client polls
     */
    PostgresDriver(PostgresSchema schema, String description, String where, DataSource dataSource,
            AutoCloseable ownedPool, ConnectionLoss loss, PostgresListener.ConnectionSource listenerSource,
            PostgresListener.ConnectionSource direct) {
        this.schema = schema;
        this.description = description;
        this.connections = new PostgresConnections(dataSource, ownedPool, loss, described(description, schema), where,
                direct);
        this.loss = loss;
        this.jobs = new PostgresJobs(schema, connections);
        this.cluster = new PostgresCluster(schema, connections);
        this.admin = new PostgresAdmin(schema, connections, jobs.links());
        this.periodic = new PostgresPeriodic(schema, connections);
        this.audit = new PostgresAudit(schema, connections);
        this.queries = new PostgresQueries(schema, connections);
        this.migrations = new PostgresMigrations(schema, connections);
        this.listenerSource = listenerSource;
        this.dataSource = dataSource;
    }

    /**
     * A driver for {@code postgres://user:password@host:5432/database?schema=jobs&sslmode=require}
     * (or {@code postgresql://}), with its own pool of {@value #DEFAULT_MAX_POOL_SIZE} connections.
     * Query parameters other than {@code schema} are passed to pgjdbc as connection properties,
     * overriding Runnel's defaults: {@code socketTimeout=30} (seconds, {@code 0} for none),
     * {@code tcpKeepAlive=true}, and {@code connectTimeout} and {@code loginTimeout} of 10 s.
     * Behind PgBouncer in transaction mode add {@code pgbouncer=transaction}, and optionally
     * {@code listen_url=} a percent-encoded direct URL for the listener (see
     * {@link PostgresDriverBuilder#transactionPooling} and {@link PostgresDriverBuilder#listenUrl}).
     */
    public static PostgresDriver fromUrl(String url) {
        return builder().url(url).build();
    }

    /**
     * A driver on the application's own pool, in schema {@value #DEFAULT_SCHEMA}. Each operation
     * borrows one connection and returns it at once; the listener for inserts keeps one borrowed
     * for as long as it listens. The pool's settings are the application's: give its connections a
     * socket timeout and TCP keepalive there (pgjdbc's {@code socketTimeout} and
     * {@code tcpKeepAlive}). Migrations lift the socket timeout for their own transaction and
     * restore it before giving the connection back.
     */
    public static PostgresDriver fromDataSource(DataSource dataSource) {
        return builder().dataSource(dataSource).build();
    }

    public static PostgresDriverBuilder builder() {
        return new PostgresDriverBuilder();
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public boolean supportsListenNotify() {
        return listenerSource != null;
    }

    /**
     * The pool this driver borrows from: the application's own, or the one built from the URL. An
     * application may take connections from it for its own transactions (and transactional
     * inserts); each must be returned promptly. The pool built from a URL gives its connections the
     * driver's socket timeout: a statement that may run longer must lift it first
     * ({@link Connection#setNetworkTimeout}).
     */
    public DataSource dataSource() {
        return dataSource;
    }

    /** The schema this driver keeps its tables in, as Postgres names it. */
    public String schema() {
        return schema.name();
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
    public List<InsertResult> jobInsertMany(List<JobInsertParams> batch) {
        return jobs.insertMany(batch);
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
        return jobs.links().reads().linkGet(id);
    }

    @Override
    public Optional<WorkflowRow> workflowGet(long id) {
        return jobs.links().reads().workflowGet(id);
    }

    @Override
    public List<WorkflowRow> workflowList(LinkListParams params) {
        return jobs.links().reads().workflowList(params);
    }

    @Override
    public List<WorkflowTaskRow> workflowTasks(long id) {
        return jobs.links().reads().workflowTasks(id);
    }

    @Override
    public Optional<BatchRow> batchGet(long id) {
        return jobs.links().reads().batchGet(id);
    }

    @Override
    public List<BatchRow> batchList(LinkListParams params) {
        return jobs.links().reads().batchList(params);
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
    public List<String> jobQueuesDue(JobQueuesDueParams params) {
        return jobs.queuesDue(params.queues(), params.now());
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
    public Optional<JobRow> jobGet(long id) {
        return jobs.get(id);
    }

    @Override
    public List<JobRow> jobGetMany(JobGetManyParams params) {
        return jobs.getMany(params.ids());
    }

    @Override
    public List<JobRow> jobList(JobQuery query) {
        return queries.list(query);
    }

    @Override
    public List<JobCount> jobCountByQueueAndState(JobCountParams params) {
        return queries.count(params);
    }

    /** Counts as {@link #jobCountByQueueAndState} does, with another sample size and exact-count timeout: for tests. */
    PostgresCounts counts(long samplePages, java.time.Duration exactTimeout) {
        return queries.counts(samplePages, exactTimeout);
    }

    @Override
    public List<RescuedJob> jobRescueMany(JobRescueParams params) {
        return jobs.rescueMany(params);
    }

    @Override
    public int jobDeleteFinalized(JobDeleteFinalizedParams params) {
        return jobs.deleteFinalized(params);
    }

    @Override
    public boolean jobStatisticsRefresh() {
        return jobs.refreshStatistics();
    }

    // ---- administration ----

    @Override
    public Set<SearchIndex> searchIndexesSupported() {
        return EnumSet.allOf(SearchIndex.class);
    }

    @Override
    public Set<SearchIndex> searchIndexList() {
        return admin.searchIndexList();
    }

    @Override
    public void searchIndexCreate(SearchIndex index) {
        admin.searchIndexCreate(index);
    }

    @Override
    public void searchIndexDrop(SearchIndex index) {
        admin.searchIndexDrop(index);
    }

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

    // ---- notifications ----

    /**
     * Listens for inserts into this driver's schema, from any process, on a dedicated connection:
     * a new one opened with {@link DriverManager} for a driver built from a URL, or one borrowed
     * from the application's pool and kept (then given back, unsubscribed) for one built from a
     * DataSource. Closing the returned handle stops the thread and releases the connection.
     */
    @Override
    public AutoCloseable listenInserts(Consumer<String> queueInserted) {
        Objects.requireNonNull(queueInserted, "queueInserted");
        if (listenerSource == null) {
            throw new IllegalStateException("the Postgres driver for " + description + " does not listen: it is"
                    + " behind a transaction pooler with no listen URL (supportsListenNotify() is false)");
        }
        PostgresListener listener = PostgresListener.start(listenerSource, schema.channel(), description, loss,
                queueInserted, listeners::remove);
        listeners.add(listener);
        return listener;
    }

    /** Where the database is and which schema, for messages: never a password. */
    static String described(String description, PostgresSchema schema) {
        return description + " (schema " + schema + ")";
    }

    /** Stops every listener and, when the driver built it, closes the pool. Idempotent. */
    @Override
    public void close() {
        for (PostgresListener listener : List.copyOf(listeners)) {
            listener.close();
        }
        connections.close();
    }

    @Override
    public String toString() {
        return "PostgresDriver[" + description + ", schema " + schema + "]";
    }

    /** Opens a connection as the listener does; for tests. */
    Connection openListenerConnection() throws SQLException {
        if (listenerSource == null) {
            throw new IllegalStateException("this driver does not listen");
        }
        return listenerSource.open();
    }

}
