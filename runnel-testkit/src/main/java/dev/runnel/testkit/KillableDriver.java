package dev.runnel.testkit;

import dev.runnel.InsertResult;
import dev.runnel.ClientRow;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.RunnelConnectException;
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
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.LeaderResignParams;
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
import java.util.function.Supplier;

/**
 * A real driver that a test can cut off: while {@linkplain #kill() killed}, every operation fails
 * as an unreachable database does, so that the client using it stops heartbeating, claiming and
 * writing, as a process frozen or cut from the network would, while the rest of the cluster goes
 * on. {@linkplain #revive() Revived}, it works again: the client comes back and finds that the
 * cluster moved on without it. Closing it leaves the shared driver open.
 */
public final class KillableDriver extends ForwardingDriver {
    private volatile boolean killed;

    public KillableDriver(Driver delegate) {
        super(delegate);
    }

    /** From now on every operation fails. */
    public void kill() {
        killed = true;
    }

    /** From now on operations reach the database again. */
    public void revive() {
        killed = false;
    }

    private <T> T alive(Supplier<T> operation) {
        if (killed) {
            throw new RunnelConnectException("the test cut this client off from the database", null);
        }
        return operation.get();
    }

    private void alive(Runnable operation) {
        alive(() -> {
            operation.run();
            return null;
        });
    }

    @Override
    public List<InsertResult> jobInsertMany(List<JobInsertParams> jobs) {
        return alive(() -> super.jobInsertMany(jobs));
    }

    @Override
    public List<JobRow> jobClaim(JobClaimParams params) {
        return alive(() -> super.jobClaim(params));
    }

    @Override
    public List<JobRow> jobClaimRecover(JobClaimParams params) {
        return alive(() -> super.jobClaimRecover(params));
    }

    @Override
    public long[] jobCompleteMany(JobCompleteManyParams params) {
        return alive(() -> super.jobCompleteMany(params));
    }

    @Override
    public long[] jobSetStateMany(List<JobSetStateParams> updates) {
        return alive(() -> super.jobSetStateMany(updates));
    }

    @Override
    public void jobReinsertMany(List<JobReinsertParams> jobs) {
        alive(() -> super.jobReinsertMany(jobs));
    }

    @Override
    public int jobScheduleDue(JobScheduleParams params) {
        return alive(() -> super.jobScheduleDue(params));
    }

    @Override
    public List<RescuedJob> jobRescueMany(JobRescueParams params) {
        return alive(() -> super.jobRescueMany(params));
    }

    @Override
    public int jobDeleteFinalized(JobDeleteFinalizedParams params) {
        return alive(() -> super.jobDeleteFinalized(params));
    }

    @Override
    public Optional<JobRow> jobGet(long id) {
        return alive(() -> super.jobGet(id));
    }

    @Override
    public List<JobRow> jobGetMany(JobGetManyParams params) {
        return alive(() -> super.jobGetMany(params));
    }

    @Override
    public List<JobRow> jobList(JobQuery query) {
        return alive(() -> super.jobList(query));
    }

    @Override
    public List<JobCount> jobCountByQueueAndState(JobCountParams params) {
        return alive(() -> super.jobCountByQueueAndState(params));
    }

    @Override
    public long[] jobCancelMany(JobCancelParams params) {
        return alive(() -> super.jobCancelMany(params));
    }

    @Override
    public long[] jobCancelRequested(JobCancelRequestedParams params) {
        return alive(() -> super.jobCancelRequested(params));
    }

    @Override
    public long[] jobRetryMany(JobRetryManyParams params) {
        return alive(() -> super.jobRetryMany(params));
    }

    @Override
    public Optional<Long> jobUniqueHolder(long id) {
        return alive(() -> super.jobUniqueHolder(id));
    }

    @Override
    public long[] jobDeleteMany(JobDeleteManyParams params) {
        return alive(() -> super.jobDeleteMany(params));
    }

    @Override
    public void clientHeartbeat(ClientHeartbeatParams params) {
        alive(() -> super.clientHeartbeat(params));
    }

    @Override
    public void clientStop(ClientStopParams params) {
        alive(() -> super.clientStop(params));
    }

    @Override
    public List<ClientRow> clientList() {
        return alive(super::clientList);
    }

    @Override
    public List<String> clientListDead(ClientListDeadParams params) {
        return alive(() -> super.clientListDead(params));
    }

    @Override
    public void clientMarkRescued(ClientRescuedParams params) {
        alive(() -> super.clientMarkRescued(params));
    }

    @Override
    public int clientDeleteExpired(ClientDeleteParams params) {
        return alive(() -> super.clientDeleteExpired(params));
    }

    @Override
    public boolean leaderAttemptElect(LeaderElectParams params) {
        return alive(() -> super.leaderAttemptElect(params));
    }

    @Override
    public void leaderResign(LeaderResignParams params) {
        alive(() -> super.leaderResign(params));
    }

    @Override
    public Optional<LeaderRow> leaderGet() {
        return alive(super::leaderGet);
    }

    @Override
    public void queueRegister(QueueRegisterParams params) {
        alive(() -> super.queueRegister(params));
    }

    @Override
    public List<QueueRow> queueList() {
        return alive(super::queueList);
    }

    @Override
    public List<String> queueSetPaused(QueuePauseParams params) {
        return alive(() -> super.queueSetPaused(params));
    }

    @Override
    public boolean queueSetGlobalLimit(QueueGlobalLimitParams params) {
        return alive(() -> super.queueSetGlobalLimit(params));
    }

    @Override
    public boolean queueSetRateLimit(QueueRateLimitParams params) {
        return alive(() -> super.queueSetRateLimit(params));
    }

    @Override
    public boolean queueSetKeyLimit(QueueKeyLimitParams params) {
        return alive(() -> super.queueSetKeyLimit(params));
    }

    @Override
    public int queueKeyStragglers(QueueKeyStragglersParams params) {
        return alive(() -> super.queueKeyStragglers(params));
    }

    @Override
    public boolean periodicUpsert(PeriodicUpsertParams params) {
        return alive(() -> super.periodicUpsert(params));
    }

    @Override
    public List<PeriodicRow> periodicList() {
        return alive(super::periodicList);
    }

    @Override
    public boolean periodicSetPaused(PeriodicPauseParams params) {
        return alive(() -> super.periodicSetPaused(params));
    }

    @Override
    public boolean periodicRemove(PeriodicRemoveParams params) {
        return alive(() -> super.periodicRemove(params));
    }

    @Override
    public boolean periodicEnqueue(PeriodicEnqueueParams params) {
        return alive(() -> super.periodicEnqueue(params));
    }

    /** Leaves the shared driver open: the test's other clients still use it. */
    @Override
    public void close() {}
}
