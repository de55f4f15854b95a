package dev.runnel.testkit;

import dev.runnel.InsertResult;
import dev.runnel.ClientRow;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.KeyLimit;
import dev.runnel.QueueRow;
import dev.runnel.RateLimit;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationRecord;
import dev.runnel.driver.RescuedJob;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * A driver that passes every operation on to a real one: the base for a test's driver that counts,
 * delays or breaks some operations of a real database, overriding only those.
 */
public class ForwardingDriver implements Driver {
    protected final Driver delegate;

    public ForwardingDriver(Driver delegate) {
        this.delegate = delegate;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public boolean supportsListenNotify() {
        return delegate.supportsListenNotify();
    }

    @Override
    public boolean supportsTransactionalInsert() {
        return delegate.supportsTransactionalInsert();
    }

    @Override
    public List<Migration> migrations() {
        return delegate.migrations();
    }

    @Override
    public List<MigrationRecord> migrationApplied() {
        return delegate.migrationApplied();
    }

    @Override
    public boolean migrationApply(Migration migration, boolean up) {
        return delegate.migrationApply(migration, up);
    }

    @Override
    public List<InsertResult> jobInsertMany(List<JobInsertParams> jobs) {
        return delegate.jobInsertMany(jobs);
    }

    @Override
    public List<InsertResult> jobInsertManyTx(Connection connection, List<JobInsertParams> jobs) {
        return delegate.jobInsertManyTx(connection, jobs);
    }

    @Override
    public List<JobRow> jobClaim(JobClaimParams params) {
        return delegate.jobClaim(params);
    }

    @Override
    public List<JobRow> jobClaimRecover(JobClaimParams params) {
        return delegate.jobClaimRecover(params);
    }

    @Override
    public long[] jobCompleteMany(JobCompleteManyParams params) {
        return delegate.jobCompleteMany(params);
    }

    @Override
    public long[] jobSetStateMany(List<JobSetStateParams> updates) {
        return delegate.jobSetStateMany(updates);
    }

    @Override
    public void jobReinsertMany(List<JobReinsertParams> jobs) {
        delegate.jobReinsertMany(jobs);
    }

    @Override
    public int jobScheduleDue(JobScheduleParams params) {
        return delegate.jobScheduleDue(params);
    }

    @Override
    public List<RescuedJob> jobRescueMany(JobRescueParams params) {
        return delegate.jobRescueMany(params);
    }

    @Override
    public int jobDeleteFinalized(JobDeleteFinalizedParams params) {
        return delegate.jobDeleteFinalized(params);
    }

    @Override
    public Optional<JobRow> jobGet(long id) {
        return delegate.jobGet(id);
    }

    @Override
    public List<JobRow> jobGetMany(long[] ids) {
        return delegate.jobGetMany(ids);
    }

    @Override
    public List<JobRow> jobList(JobQuery query) {
        return delegate.jobList(query);
    }

    @Override
    public List<JobCount> jobCountByQueueAndState(JobCountParams params) {
        return delegate.jobCountByQueueAndState(params);
    }

    @Override
    public long[] jobCancelMany(JobCancelParams params) {
        return delegate.jobCancelMany(params);
    }

    @Override
    public long[] jobCancelRequested(long[] ids) {
        return delegate.jobCancelRequested(ids);
    }

    @Override
    public long[] jobRetryMany(long[] ids, Instant now) {
        return delegate.jobRetryMany(ids, now);
    }

    @Override
    public Optional<Long> jobUniqueHolder(long id) {
        return delegate.jobUniqueHolder(id);
    }

    @Override
    public long[] jobDeleteMany(long[] ids) {
        return delegate.jobDeleteMany(ids);
    }

    @Override
    public void clientHeartbeat(ClientHeartbeatParams params) {
        delegate.clientHeartbeat(params);
    }

    @Override
    public void clientStop(String id, Instant now) {
        delegate.clientStop(id, now);
    }

    @Override
    public List<ClientRow> clientList() {
        return delegate.clientList();
    }

    @Override
    public List<String> clientListDead(Instant now) {
        return delegate.clientListDead(now);
    }

    @Override
    public void clientMarkRescued(ClientRescuedParams params) {
        delegate.clientMarkRescued(params);
    }

    @Override
    public int clientDeleteExpired(ClientDeleteParams params) {
        return delegate.clientDeleteExpired(params);
    }

    @Override
    public boolean leaderAttemptElect(LeaderElectParams params) {
        return delegate.leaderAttemptElect(params);
    }

    @Override
    public void leaderResign(String leaderId) {
        delegate.leaderResign(leaderId);
    }

    @Override
    public Optional<LeaderRow> leaderGet() {
        return delegate.leaderGet();
    }

    @Override
    public void queueRegister(List<String> queues, Instant now) {
        delegate.queueRegister(queues, now);
    }

    @Override
    public List<QueueRow> queueList() {
        return delegate.queueList();
    }

    @Override
    public List<String> queueSetPaused(QueuePauseParams params) {
        return delegate.queueSetPaused(params);
    }

    @Override
    public boolean queueSetGlobalLimit(String queue, OptionalInt limit, Instant now) {
        return delegate.queueSetGlobalLimit(queue, limit, now);
    }

    @Override
    public boolean queueSetRateLimit(String queue, Optional<RateLimit> limit, Instant now) {
        return delegate.queueSetRateLimit(queue, limit, now);
    }

    @Override
    public boolean queueSetKeyLimit(String queue, Optional<KeyLimit> limit, Instant now) {
        return delegate.queueSetKeyLimit(queue, limit, now);
    }

    @Override
    public int queueKeyStragglers(Instant since) {
        return delegate.queueKeyStragglers(since);
    }

    @Override
    public boolean periodicUpsert(PeriodicUpsertParams params) {
        return delegate.periodicUpsert(params);
    }

    @Override
    public List<PeriodicRow> periodicList() {
        return delegate.periodicList();
    }

    @Override
    public boolean periodicSetPaused(PeriodicPauseParams params) {
        return delegate.periodicSetPaused(params);
    }

    @Override
    public boolean periodicRemove(String name, Instant now) {
        return delegate.periodicRemove(name, now);
    }

    @Override
    public boolean periodicEnqueue(PeriodicEnqueueParams params) {
        return delegate.periodicEnqueue(params);
    }

    @Override
    public AutoCloseable listenInserts(Consumer<String> queueInserted) {
        return delegate.listenInserts(queueInserted);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public long auditInsert(dev.runnel.driver.AuditInsertParams params) {
        return delegate.auditInsert(params);
    }

    @Override
    public List<dev.runnel.AuditRow> auditList(long beforeId, int limit) {
        return delegate.auditList(beforeId, limit);
    }
}
