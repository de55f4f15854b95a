package dev.runnel.testkit;

import dev.runnel.InsertResult;
import dev.runnel.ClientRow;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.SearchIndex;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
    public Set<SearchIndex> searchIndexesSupported() {
        return delegate.searchIndexesSupported();
    }

    @Override
    public Set<SearchIndex> searchIndexList() {
        return delegate.searchIndexList();
    }

    @Override
    public void searchIndexCreate(SearchIndex index) {
        delegate.searchIndexCreate(index);
    }

    @Override
    public void searchIndexDrop(SearchIndex index) {
        delegate.searchIndexDrop(index);
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
    public boolean migrationApply(MigrationApplyParams params) {
        return delegate.migrationApply(params);
    }

    @Override
    public List<InsertResult> jobInsertMany(List<JobInsertParams> jobs) {
        return delegate.jobInsertMany(jobs);
    }

    @Override
    public List<InsertResult> jobInsertManyTx(JobInsertTxParams params) {
        return delegate.jobInsertManyTx(params);
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
    public boolean jobStatisticsRefresh() {
        return delegate.jobStatisticsRefresh();
    }

    @Override
    public Optional<JobRow> jobGet(long id) {
        return delegate.jobGet(id);
    }

    @Override
    public List<JobRow> jobGetMany(JobGetManyParams params) {
        return delegate.jobGetMany(params);
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
    public long[] jobCancelRequested(JobCancelRequestedParams params) {
        return delegate.jobCancelRequested(params);
    }

    @Override
    public long[] jobRetryMany(JobRetryManyParams params) {
        return delegate.jobRetryMany(params);
    }

    @Override
    public Optional<Long> jobUniqueHolder(long id) {
        return delegate.jobUniqueHolder(id);
    }

    @Override
    public long[] jobDeleteMany(JobDeleteManyParams params) {
        return delegate.jobDeleteMany(params);
    }

    @Override
    public void clientHeartbeat(ClientHeartbeatParams params) {
        delegate.clientHeartbeat(params);
    }

    @Override
    public void clientStop(ClientStopParams params) {
        delegate.clientStop(params);
    }

    @Override
    public List<ClientRow> clientList() {
        return delegate.clientList();
    }

    @Override
    public List<String> clientListDead(ClientListDeadParams params) {
        return delegate.clientListDead(params);
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
    public void leaderResign(LeaderResignParams params) {
        delegate.leaderResign(params);
    }

    @Override
    public Optional<LeaderRow> leaderGet() {
        return delegate.leaderGet();
    }

    @Override
    public void queueRegister(QueueRegisterParams params) {
        delegate.queueRegister(params);
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
    public boolean queueSetGlobalLimit(QueueGlobalLimitParams params) {
        return delegate.queueSetGlobalLimit(params);
    }

    @Override
    public boolean queueSetRateLimit(QueueRateLimitParams params) {
        return delegate.queueSetRateLimit(params);
    }

    @Override
    public boolean queueSetKeyLimit(QueueKeyLimitParams params) {
        return delegate.queueSetKeyLimit(params);
    }

    @Override
    public int queueKeyStragglers(QueueKeyStragglersParams params) {
        return delegate.queueKeyStragglers(params);
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
    public boolean periodicRemove(PeriodicRemoveParams params) {
        return delegate.periodicRemove(params);
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
    public List<dev.runnel.AuditRow> auditList(AuditListParams params) {
        return delegate.auditList(params);
    }
}
