package dev.runnel.postgres;

import dev.runnel.JobRow;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.testkit.ForwardingDriver;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A driver that passes everything on and counts the claims and outcome writes that failed, so
 * that a test can tell it really broke connections under the runtime, not beside it.
 */
final class FailureCountingDriver extends ForwardingDriver {
    private final AtomicInteger failedClaims = new AtomicInteger();
    private final AtomicInteger failedWrites = new AtomicInteger();

    FailureCountingDriver(Driver delegate) {
        super(delegate);
    }

    int failedClaims() {
        return failedClaims.get();
    }

    /** Failed outcome writes: each one the completer had to retry. */
    int failedWrites() {
        return failedWrites.get();
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

    private static <T> T counted(AtomicInteger failures, Supplier<T> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            failures.incrementAndGet();
            throw e;
        }
    }
}
