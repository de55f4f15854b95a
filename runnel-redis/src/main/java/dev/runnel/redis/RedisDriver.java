package dev.runnel.redis;

import dev.runnel.AuditRow;
import dev.runnel.ClientRow;
import dev.runnel.InsertResult;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.driver.AuditInsertParams;
import dev.runnel.driver.AuditListParams;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientListDeadParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.ClientStopParams;
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
import dev.runnel.driver.RescuedJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runnel's Redis driver (Redis 7 or newer), opened by
 * {@code redis://[user:password@]host:port/db[?prefix=NAME]} or {@code rediss://} for TLS.
 *
 * <p>Every operation is one call of a Redis Function in Runnel's library, which runs atomically on
 * the server; every key of a namespace shares the hash tag {@code {NAME}}, so each call touches
 * one slot. No operation scans the keyspace. Jobs cannot be inserted inside an application's SQL
 * transaction ({@link #supportsTransactionalInsert()} is false): insert after the commit, or keep
 * an outbox table that a job of its own moves into Runnel.
 *
 * <p>Durability is the server's: with {@code appendonly yes} and {@code appendfsync everysec} a
 * crash of the Redis host can lose about the last second of acknowledged writes, and a failover to
 * an asynchronous replica can lose more. The server must not evict keys
 * ({@code maxmemory-policy noeviction}); the driver warns at start when it may.
 */
public final class RedisDriver implements Driver {
    private final RedisFunctions redis;
    private final RedisJobs jobs;
    private final RedisReads reads;
    private final RedisAdmin admin;
    private final RedisCluster cluster;
    private final RedisNamespace namespace;
    private final RedisLimits limits;
    private final RedisPeriodic periodic;
    private final Set<RedisListener> listeners = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisDriver(RedisFunctions redis) {
        this.redis = redis;
        this.jobs = new RedisJobs(redis);
        this.reads = new RedisReads(redis);
        this.admin = new RedisAdmin(redis);
        this.cluster = new RedisCluster(redis);
        this.namespace = new RedisNamespace(redis);
        this.limits = new RedisLimits(redis);
        this.periodic = new RedisPeriodic(redis);
    }

    /**
     * Opens {@code redis://[user:password@]host[:port][/db][?prefix=NAME]} ({@code rediss://}: TLS).
     * Throws {@link IllegalArgumentException} on a malformed URL, and
     * {@link dev.runnel.RunnelConnectException} when the server cannot be reached, refuses the
     * credentials or is older than Redis 7.0; nothing is written then.
     */
    public static RedisDriver open(String url) {
        return new RedisDriver(RedisFunctions.connect(RedisUrl.parse(url)));
    }

    @Override
    public String name() {
        return "redis";
    }

    /** True: the functions publish each wake-up on the namespace's channel ({@link #listenInserts}). */
    @Override
    public boolean supportsListenNotify() {
        return true;
    }

    /** False: Redis cannot join an application's SQL transaction. */
    @Override
    public boolean supportsTransactionalInsert() {
        return false;
    }

    /** The namespace's prefix, {@code {NAME}:}, that every one of its keys starts with. */
    public String keyPrefix() {
        return RedisKeys.prefix(redis.url().prefix());
    }

    // ---- migrations ----

    @Override
    public List<Migration> migrations() {
        return namespace.all();
    }

    @Override
    public List<MigrationRecord> migrationApplied() {
        return namespace.applied();
    }

    @Override
    public boolean migrationApply(MigrationApplyParams params) {
        return namespace.apply(params.migration(), params.up());
    }

    // ---- jobs ----

    @Override
    public List<InsertResult> jobInsertMany(List<JobInsertParams> jobs) {
        return this.jobs.insertMany(jobs);
    }

    /** Always throws: Redis cannot join the caller's SQL transaction. */
    @Override
    public List<InsertResult> jobInsertManyTx(JobInsertTxParams params) {
        throw new UnsupportedOperationException("the Redis driver cannot insert jobs inside an application's SQL"
                + " transaction: insert them after the transaction commits, or write them to an outbox table in the"
                + " same transaction and move them into Runnel from there");
    }

    @Override
    public List<JobRow> jobClaim(JobClaimParams params) {
        return jobs.claim(params);
    }

    @Override
    public List<String> jobQueuesDue(JobQueuesDueParams params) {
        return jobs.queuesDue(params);
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
    public Optional<JobRow> jobGet(long id) {
        return reads.get(id);
    }

    @Override
    public List<JobRow> jobGetMany(JobGetManyParams params) {
        return reads.getMany(params.ids());
    }

    @Override
    public List<JobRow> jobList(JobQuery query) {
        return reads.list(query);
    }

    /** Exact always: the counts are kept by every write, never estimated. */
    @Override
    public List<JobCount> jobCountByQueueAndState(JobCountParams params) {
        return reads.count();
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

    /** The queue's running jobs all count under a global limit set on it (Redis counts them exactly). */
    @Override
    public boolean queueSetGlobalLimit(QueueGlobalLimitParams params) {
        return limits.setGlobal(params);
    }

    @Override
    public boolean queueSetRateLimit(QueueRateLimitParams params) {
        return limits.setRate(params);
    }

    /** Returns once every job waiting in the queue has its key, given in batches (see {@link RedisLimits#setKey}). */
    @Override
    public boolean queueSetKeyLimit(QueueKeyLimitParams params) {
        return limits.setKey(params);
    }

    /** The waiting jobs a client that set a per-key limit stopped before giving their keys to. */
    @Override
    public int queueKeyStragglers(QueueKeyStragglersParams params) {
        return limits.stragglers(params);
    }

    // ---- periodic jobs and the audit log ----

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
        return periodic.remove(params);
    }

    @Override
    public boolean periodicEnqueue(PeriodicEnqueueParams params) {
        return periodic.enqueue(params);
    }

    @Override
    public long auditInsert(AuditInsertParams params) {
        return redis.callLong("runnel_audit_insert", RedisEncoding.micros(params.at()), params.actor(), params.action(),
                params.target(), Long.toString(params.count()));
    }

    @Override
    public List<AuditRow> auditList(AuditListParams params) {
        List<AuditRow> rows = new ArrayList<>();
        for (Object o : redis.call("runnel_audit_list", Long.toString(params.beforeId()),
                Integer.toString(params.limit()))) {
            List<?> v = (List<?>) o;
            if (v.get(1) != null) {
                rows.add(new AuditRow(RedisRows.number(v.get(0)), RedisEncoding.instant(v.get(1)), v.get(2).toString(),
                        v.get(3).toString(), v.get(4).toString(), RedisRows.number(v.get(5))));
            }
        }
        return rows;
    }

    /**
     * The fields of the server's {@code INFO section} (e.g. {@code commandstats}, {@code cpu}),
     * name to value, in the server's order: for tools that measure what the server did.
     */
    public Map<String, String> serverInfo(String section) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : redis.info(section).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (!line.startsWith("#") && colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    // ---- notifications ----

    /**
     * Listens for the namespace's wake-ups, from any process, on a pub/sub connection of its own
     * (see {@link RedisListener}). Closing the returned handle unsubscribes and closes it.
     */
    @Override
    public AutoCloseable listenInserts(Consumer<String> queueInserted) {
        Objects.requireNonNull(queueInserted, "queueInserted");
        RedisListener listener = RedisListener.start(redis.url(), queueInserted, listeners::remove);
        listeners.add(listener);
        return listener;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                for (RedisListener listener : List.copyOf(listeners)) {
                    listener.close();
                }
            } finally {
                redis.close();
            }
        }
    }
}
