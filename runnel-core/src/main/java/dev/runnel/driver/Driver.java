package dev.runnel.driver;

import dev.runnel.AuditRow;
import dev.runnel.BatchRow;
import dev.runnel.ClientRow;
import dev.runnel.InsertResult;
import dev.runnel.JobCount;
import dev.runnel.JobLinks;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.SearchIndex;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The storage SPI every Runnel driver implements: one method per data operation, named noun
 * first, each taking one params record. <strong>Internal to Runnel's own drivers: it may change
 * in any release.</strong>
 *
 * <p>The params record is the method's whole input, so that adding an input changes one record
 * and not every implementation's signature. Three kinds of method take something else, and only
 * these: a batch written job by job takes the {@code List} of its jobs' params records
 * ({@link #jobInsertMany}, {@link #jobSetStateMany}, {@link #jobReinsertMany}); a read of one job
 * takes its id ({@link #jobGet}, {@link #jobUniqueHolder}); and a method whose input is already
 * one API value takes that value ({@link #jobList} a {@link JobQuery}, {@link #searchIndexCreate}
 * a {@link SearchIndex}). Methods without input take none.
 *
 * <p>The runtime knows nothing of SQL and a driver knows nothing of workers. Times are passed in
 * from the client's clock, so tests control time. Methods throw {@link dev.runnel.RunnelException}
 * on database failure: {@link dev.runnel.RunnelConnectException} when the database could not be
 * reached (nothing was applied), {@link DataRejectedException} when a statement was refused for
 * the data it carried (nothing was applied; repeating it fails the same way), any other
 * {@code RunnelException} when the outcome is unclear (the connection was lost mid-statement).
 */
public interface Driver extends AutoCloseable {
    /** A short name for logs and errors, e.g. {@code sqlite}. */
    String name();

    /** Whether inserts anywhere in the cluster are pushed to {@link #listenInserts}. */
    default boolean supportsListenNotify() {
        return false;
    }

    /** Whether {@link #jobInsertManyTx} can join a caller's {@link java.sql.Connection}. */
    default boolean supportsTransactionalInsert() {
        return true;
    }

    /**
     * Whether the driver stores links ({@link #linkInsert}): workflows, batches and sequences. A
     * driver that does also settles, in the same transaction as the outcome, what a linked job's
     * outcome releases, wherever the outcome is written: {@link #jobSetStateMany} (for params
     * marked linked), {@link #jobCancelMany}, {@link #jobDeleteMany}, {@link #jobRetryMany} and
     * {@link #jobRescueMany}.
     */
    default boolean supportsLinks() {
        return false;
    }

    // ---- optional indexes ----

    /** The {@link SearchIndex}es this driver can create; none by default. */
    default Set<SearchIndex> searchIndexesSupported() {
        return Set.of();
    }

    /** The search indexes the job table has. */
    default Set<SearchIndex> searchIndexList() {
        return Set.of();
    }

    /** Creates a search index unless it exists, without blocking writes; only one {@link #searchIndexesSupported}. */
    default void searchIndexCreate(SearchIndex index) {
        throw new UnsupportedOperationException(name() + " has no search indexes");
    }

    /** Drops a search index if it exists. */
    default void searchIndexDrop(SearchIndex index) {
        throw new UnsupportedOperationException(name() + " has no search indexes");
    }

    // ---- migrations ----

    /** Every migration this driver knows, by ascending version. */
    List<Migration> migrations();

    /** The migrations applied to the database, by ascending version; empty on a new database. */
    List<MigrationRecord> migrationApplied();

    /**
     * Applies ({@code up}) or reverts one migration in its own transaction, recording it. Reverting
     * the last one applied drops the migration table too, so that a full down leaves nothing of
     * Runnel behind. Returns false, changing nothing, when the database is already in the wanted
     * state (another process got there first).
     */
    boolean migrationApply(MigrationApplyParams params);

    // ---- jobs ----

    /**
     * Inserts jobs, in as few statements as the database allows, and returns their results in
     * order. A unique job whose key another job holds (in one of that job's unique states) is not
     * written: its result is the holder's id, marked duplicate. No two jobs given share a key.
     */
    List<InsertResult> jobInsertMany(List<JobInsertParams> jobs);

    /**
     * Inserts jobs on the caller's connection, inside whatever transaction it holds: they exist
     * only if the caller commits. Returns their results in order, as {@link #jobInsertMany}.
     */
    List<InsertResult> jobInsertManyTx(JobInsertTxParams params);

    /**
     * Claims up to {@code max} available jobs of a queue in one statement, moving them to running
     * and returning them ordered by priority, scheduled time, then id. An at-most-once claim
     * ({@link JobClaimParams#atMostOnce()}) removes them instead, and returns them as completed.
     */
    List<JobRow> jobClaim(JobClaimParams params);

    /**
     * Of {@code params.queues()}, those that may hold a job available and due by
     * {@code params.now()}, in any order: the client's safety poll, one look at all of its queues,
     * after which only the queues named claim (the claim's paused and limit checks are not made
     * here). It may name a queue that has no such job, never leave out one that has. The default,
     * for a store that does not tell cheaply, names them all, and each then claims.
     */
    default List<String> jobQueuesDue(JobQueuesDueParams params) {
        return params.queues();
    }

    /**
     * The jobs an earlier at-least-once claim with these params (same queue, time and client) made
     * and that are still running: after a claim failed with its outcome unclear (the connection
     * broke once the statement was sent), the claimed jobs would otherwise run under a live client
     * that does not know it holds them, and nothing would ever rescue them. Rare, so it may scan.
     */
    List<JobRow> jobClaimRecover(JobClaimParams params);

    /**
     * Marks running jobs completed: the happy path, one statement. Returns the ids written, in any
     * order: a job no longer running in the attempt the params name is left alone and not returned.
     */
    long[] jobCompleteMany(JobCompleteManyParams params);

    /**
     * Records any other outcome of running jobs (retry, snooze, cancel, discard), in one statement
     * or transaction. Returns the ids written, in any order, as {@link #jobCompleteMany} does.
     */
    long[] jobSetStateMany(List<JobSetStateParams> updates);

    /**
     * Writes back, in one statement or transaction, jobs an at-most-once claim removed whose
     * attempt failed or was cancelled. A job whose id is present already is left as it is, so
     * repeating a write after an unclear failure is safe.
     */
    void jobReinsertMany(List<JobReinsertParams> jobs);

    /**
     * Makes scheduled and retryable jobs that are due available, at most {@link JobScheduleParams#limit()}
     * of them, the earliest scheduled first; returns how many. Jobs in any other state are left alone.
     */
    int jobScheduleDue(JobScheduleParams params);

    /** The job with id {@code id}, if it exists. */
    Optional<JobRow> jobGet(long id);

    /** The jobs with these ids that exist, in any order. */
    List<JobRow> jobGetMany(JobGetManyParams params);

    /**
     * A page of the jobs {@code query} matches, in its order (see {@link JobListScan} for reading
     * it). Each filter means the same on every driver; the conformance suite holds them to it.
     */
    List<JobRow> jobList(JobQuery query);

    /**
     * Counts jobs by queue and state, as {@code params} allow: exactly, or quickly, estimating a
     * count that would read much of a large table (each such count marked not exact). By queue,
     * then state in {@link dev.runnel.JobState}'s order; queues with no jobs in a state are left out.
     */
    List<JobCount> jobCountByQueueAndState(JobCountParams params);

    /** Every job counted exactly by queue and state: {@link #jobCountByQueueAndState} with {@link JobCountParams#EXACT}. */
    default List<JobCount> jobCountByState() {
        return jobCountByQueueAndState(JobCountParams.EXACT);
    }

    /**
     * Rescues running jobs of dead clients and, past a threshold, of unregistered ones (see
     * {@link JobRescueParams}); nothing unless the lease is held. Returns what it rescued.
     */
    List<RescuedJob> jobRescueMany(JobRescueParams params);

    /** Deletes final jobs past their retention (see {@link JobDeleteFinalizedParams}); returns how many. */
    int jobDeleteFinalized(JobDeleteFinalizedParams params);

    /**
     * Brings the database's planner statistics for the job table up to date when the table has
     * grown far past what they last counted, so that statements planned while it was small are
     * planned again; returns whether it did. The leader calls it every second. A store whose
     * statements do not keep plans made for the table's size does nothing, as this default does.
     */
    default boolean jobStatisticsRefresh() {
        return false;
    }

    // ---- links: workflows, batches, sequences ----

    /**
     * Inserts jobs tied to others (see {@link LinkInsertParams} and {@link Links#insert}), all or
     * none, on the caller's connection when it gives one. Throws {@link dev.runnel.NotFoundException}
     * when the workflow or batch to add to does not exist, and {@link IllegalArgumentException}
     * when a task runs after one that is not in the workflow or a task name is taken, nothing written.
     */
    default LinkInserted linkInsert(LinkInsertParams params) {
        throw new UnsupportedOperationException(name() + " stores no workflows, batches or sequences");
    }

    /** What ties job {@code id} to others, if it is linked. */
    default Optional<JobLinks> linkGet(long id) {
        throw new UnsupportedOperationException(name() + " stores no workflows, batches or sequences");
    }

    /** The workflow with id {@code id}, if it exists. */
    default Optional<WorkflowRow> workflowGet(long id) {
        throw new UnsupportedOperationException(name() + " stores no workflows");
    }

    /** Workflows newest first (see {@link LinkListParams}). */
    default List<WorkflowRow> workflowList(LinkListParams params) {
        throw new UnsupportedOperationException(name() + " stores no workflows");
    }

    /** The tasks of workflow {@code id} in the order they were inserted; empty when there is no such workflow. */
    default List<WorkflowTaskRow> workflowTasks(long id) {
        throw new UnsupportedOperationException(name() + " stores no workflows");
    }

    /** The batch with id {@code id}, if it exists. */
    default Optional<BatchRow> batchGet(long id) {
        throw new UnsupportedOperationException(name() + " stores no batches");
    }

    /** Batches newest first (see {@link LinkListParams}). */
    default List<BatchRow> batchList(LinkListParams params) {
        throw new UnsupportedOperationException(name() + " stores no batches");
    }

    // ---- administration ----

    /**
     * Cancels jobs (see {@link JobCancelParams}): one not running becomes cancelled at once, a
     * running one is marked for its client to interrupt (and told, where the driver can), a final
     * one is left alone. Returns the ids changed.
     */
    long[] jobCancelMany(JobCancelParams params);

    /** Of the running jobs {@code ids} (this client's), those whose cancel was requested. */
    long[] jobCancelRequested(JobCancelRequestedParams params);

    /**
     * Makes jobs that are not running available at {@code now}, attempts kept (one more allowed
     * when out of them), and wakes their queues where the driver can. A unique job whose key
     * another job holds is left as it is. Returns the ids changed.
     */
    long[] jobRetryMany(JobRetryManyParams params);

    /** The job, other than {@code id}, that holds {@code id}'s unique key, if any does. */
    Optional<Long> jobUniqueHolder(long id);

    /** Deletes jobs that are not running; returns the ids deleted. */
    long[] jobDeleteMany(JobDeleteManyParams params);

    // ---- clients and the leader ----

    /** Registers a client, or renews its heartbeat. */
    void clientHeartbeat(ClientHeartbeatParams params);

    /** Records a clean stop of client {@code id} at {@code now}: it expires at once. */
    void clientStop(ClientStopParams params);

    /** Every registered client, oldest first. */
    List<ClientRow> clientList();

    /** The clients expired by {@code now} whose jobs have not been rescued since they expired. */
    List<String> clientListDead(ClientListDeadParams params);

    /** See {@link ClientRescuedParams}; nothing unless the lease is held. */
    void clientMarkRescued(ClientRescuedParams params);

    /** See {@link ClientDeleteParams}; nothing unless the lease is held. Returns how many. */
    int clientDeleteExpired(ClientDeleteParams params);

    /** Takes or renews the leader's lease (see {@link LeaderElectParams}); true when it is held. */
    boolean leaderAttemptElect(LeaderElectParams params);

    /** Gives up the lease, if {@code leaderId} holds it, so that another client can take over at once. */
    void leaderResign(LeaderResignParams params);

    /** The lease, if anyone holds or held it (check its expiry). */
    Optional<LeaderRow> leaderGet();

    // ---- queues ----

    /** Registers the queues a starting client works: created if new, their {@code updated_at} moved on. */
    void queueRegister(QueueRegisterParams params);

    /** Every queue, by name. */
    List<QueueRow> queueList();

    /**
     * Pauses or resumes a queue, or all; returns the names of the queues matched (none: no such
     * queue). A resume wakes the clients working them where the driver can.
     */
    List<String> queueSetPaused(QueuePauseParams params);

    /**
     * Sets queue {@code queue}'s global limit (empty: none), and counts its running jobs under it.
     * Returns false, changing nothing, when there is no such queue.
     */
    boolean queueSetGlobalLimit(QueueGlobalLimitParams params);

    /**
     * Sets queue {@code queue}'s rate limit (empty: none). Returns false, changing nothing, when
     * there is no such queue.
     */
    boolean queueSetRateLimit(QueueRateLimitParams params);

    /**
     * Sets queue {@code queue}'s per-key limit (empty: none), and gives its waiting jobs their
     * keys. Returns false, changing nothing, when there is no such queue.
     */
    boolean queueSetKeyLimit(QueueKeyLimitParams params);

    /**
     * Gives their keys to the waiting jobs without one of the queues whose per-key limit was set
     * after {@code since}; returns how many.
     */
    int queueKeyStragglers(QueueKeyStragglersParams params);
    // ---- periodic jobs ----

    /**
     * Stores a periodic job's definition unless it is stored already, and enqueues its run on start
     * when it was stored (see {@link PeriodicUpsertParams}). Returns whether it was stored.
     */
    boolean periodicUpsert(PeriodicUpsertParams params);

    /** Every periodic job not removed, by name. */
    List<PeriodicRow> periodicList();

    /** Pauses or resumes a periodic job (see {@link PeriodicPauseParams}); false when there is no such job. */
    boolean periodicSetPaused(PeriodicPauseParams params);

    /**
     * Removes periodic job {@code name}: it enqueues nothing more and is no longer listed. Its row
     * stays, marked removed, so that code declaring it unchanged does not bring it back (see
     * {@link PeriodicUpsertParams}). False when there is no such job.
     */
    boolean periodicRemove(PeriodicRemoveParams params);

    /**
     * Moves a periodic job on by one tick, enqueuing it (see {@link PeriodicEnqueueParams}), all or
     * nothing; false, changing nothing, when the job is no longer as read or the lease is not held.
     */
    boolean periodicEnqueue(PeriodicEnqueueParams params);

    /** Adds an entry to the audit log; returns its id. */
    long auditInsert(AuditInsertParams params);

    /** Up to {@code limit} audit entries newest first, those with ids below {@code beforeId} (0: from the newest). */
    List<AuditRow> auditList(AuditListParams params);

    // ---- notifications ----

    /**
     * A message of {@link #listenInserts}: notifications arrive from now on, after the driver's
     * first listening connection and after each reconnection. A client that hears it fetches at
     * once (whatever became available while none arrived) and then polls only as a safety net.
     * A driver that never says it is polled at the fetch poll interval throughout.
     */
    String LISTENING = "\u0002listening";

    /**
     * A message of {@link #listenInserts}: notifications stopped arriving (the listening
     * connection was lost); the client polls at its fetch poll interval until {@link #LISTENING}.
     */
    String NOT_LISTENING = "\u0002not listening";

    /**
     * A message of {@link #listenInserts}: a queue was given a global, rate or per-key limit, or
     * had one changed or removed. A client that hears it reads its queues' limits again at once,
     * since a queue given a limit is claimed only by a claim under limits.
     */
    String LIMITS_CHANGED = "\u0003limits changed";

    /**
     * Subscribes to the cluster's notifications: {@code queueInserted} receives a queue name each
     * time jobs become available in it anywhere (inserted, scheduled, retried, or their queue
     * resumed), and a control message, which starts with a control character (no queue name holds
     * one): {@link #LISTENING} and {@link #NOT_LISTENING} as the listening connection comes and
     * goes, where the driver can tell, and any other when a cancel was requested of a running job.
     * One channel serves all, so a client keeps one listening connection. Only when
     * {@link #supportsListenNotify()}.
     */
    default AutoCloseable listenInserts(Consumer<String> queueInserted) {
        throw new UnsupportedOperationException(name() + " has no listen/notify");
    }

    /** Releases connections and threads. Idempotent. */
    @Override
    void close();
}
