package dev.runnel.postgres;

import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationRecord;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A driver that passes everything on and counts the claims and outcome writes that failed, so
 * that a test can tell it really broke connections under the runtime, not beside it.
 */
final class FailureCountingDriver implements Driver {
    private final Driver delegate;
    private final AtomicInteger failedClaims = new AtomicInteger();
    private final AtomicInteger failedWrites = new AtomicInteger();

    FailureCountingDriver(Driver delegate) {
        this.delegate = delegate;
    }

    int failedClaims() {
        return failedClaims.get();
    }

    /** Failed outcome writes: each one the completer had to retry. */
    int failedWrites() {
        return failedWrites.get();
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
    public long[] jobInsertMany(List<JobInsertParams> jobs) {
        return delegate.jobInsertMany(jobs);
    }

    @Override
    public long[] jobInsertManyTx(Connection connection, List<JobInsertParams> jobs) {
        return delegate.jobInsertManyTx(connection, jobs);
    }

    @Override
    public List<JobRow> jobClaim(JobClaimParams params) {
        return counted(failedClaims, () -> delegate.jobClaim(params));
    }

    @Override
    public long[] jobCompleteMany(JobCompleteManyParams params) {
        return counted(failedWrites, () -> delegate.jobCompleteMany(params));
    }

    @Override
    public long[] jobSetStateMany(List<JobSetStateParams> updates) {
        return counted(failedWrites, () -> delegate.jobSetStateMany(updates));
    }

    @Override
    public void jobReinsertMany(List<JobReinsertParams> jobs) {
        counted(failedWrites, () -> {
            delegate.jobReinsertMany(jobs);
            return null;
        });
    }

    @Override
    public int jobScheduleDue(JobScheduleParams params) {
        return delegate.jobScheduleDue(params);
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
    public List<JobCount> jobCountByState() {
        return delegate.jobCountByState();
    }

    @Override
    public AutoCloseable listenInserts(Consumer<String> queueInserted) {
        return delegate.listenInserts(queueInserted);
    }

    @Override
    public void close() {
        delegate.close();
    }

    private static <T> T counted(AtomicInteger failures, Supplier<T> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            failures.incrementAndGet();
            throw e;
        }
    }
}
