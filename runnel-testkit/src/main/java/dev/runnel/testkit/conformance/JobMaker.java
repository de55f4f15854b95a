package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobSetStateParams;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Puts jobs into any state through the driver's own writes, as clients do: inserted, claimed, then
 * given an outcome. A job that has to be claimed is claimed alone from its queue, so the queue must
 * hold no other available job that is due at the claim's time; without a queue named, each job
 * gets a queue of its own.
 */
final class JobMaker {
    /** The client every claim of the maker is made by. */
    static final String CLIENT = "maker";

    private final Driver driver;
    private int queues;

    JobMaker(Driver driver) {
        this.driver = driver;
    }

    /** A queue no other job of this maker is in. */
    String newQueue() {
        return "made-" + ++queues;
    }

    /** Inserts one job through the driver, in any state an insert takes, created at {@code T0}. */
    long insert(String queue, JobState state, Instant scheduledAt) {
        return driver.jobInsertMany(List.of(new JobInsertParams("test_job", "{\"name\":\"made\",\"value\":0}", queue, 1,
                state, DriverConformance.T0, scheduledAt, 25, List.of(), "{}"))).getFirst().id();
    }

    /** Inserts a job due at {@code scheduledAt} and claims it at {@code at}; returns the claimed row. */
    JobRow claim(String queue, Instant scheduledAt, Instant at) {
        long id = insert(queue, JobState.AVAILABLE, scheduledAt);
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams(queue, 1, at, CLIENT));
        assertThat(claimed).as("the claim of the job just inserted into %s", queue)
                .extracting(JobRow::id).containsExactly(id);
        return claimed.getFirst();
    }

    /** A job in {@code state}, in a queue of its own; see {@link #make(String, JobState, Instant, Instant)}. */
    JobRow make(JobState state, Instant scheduledAt, Instant at) {
        return make(newQueue(), state, scheduledAt, at);
    }

    /**
     * A job in {@code state}, scheduled at {@code scheduledAt}, as stored. Available, scheduled and
     * pending jobs are inserted so (a pending one with no link: nothing releases it); the others are claimed at {@code at} (so {@code scheduledAt} must not be
     * later, except for a retryable job, whose retry sets it) and given their outcome at {@code at}:
     * a failed attempt records an error, as do cancelled and discarded jobs.
     */
    JobRow make(String queue, JobState state, Instant scheduledAt, Instant at) {
        return make(new JobInsertParams("test_job", "{\"name\":\"made\",\"value\":0}", queue, 1, JobState.AVAILABLE,
                DriverConformance.T0, scheduledAt, 25, List.of(), "{}"), state, at);
    }

    /**
     * A job inserted as {@code job} (its kind, args, queue, tags, creation time...) and then brought
     * into {@code state} as {@link #make(String, JobState, Instant, Instant)} does: {@code job}'s
     * state is ignored, its scheduled time kept for an available or scheduled job.
     */
    JobRow make(JobInsertParams job, JobState state, Instant at) {
        if (state == JobState.AVAILABLE || state == JobState.SCHEDULED || state == JobState.PENDING) {
            return stored(driver.jobInsertMany(List.of(withState(job, state, job.scheduledAt()))).getFirst().id());
        }
        Instant due = state == JobState.RETRYABLE ? at : job.scheduledAt();
        long id = driver.jobInsertMany(List.of(withState(job, JobState.AVAILABLE, due))).getFirst().id();
        List<JobRow> claimedJobs = driver.jobClaim(new JobClaimParams(job.queue(), 1, at, CLIENT));
        assertThat(claimedJobs).as("the claim of the job just inserted into %s", job.queue())
                .extracting(JobRow::id).containsExactly(id);
        JobRow claimed = claimedJobs.getFirst();
        Instant scheduledAt = job.scheduledAt();
        JobError error = new JobError(claimed.attempt(), at, "made " + state.dbName(), "");
        long[] written = switch (state) {
            case RUNNING -> new long[] {claimed.id()};
            case COMPLETED -> driver.jobCompleteMany(JobCompleteManyParams.of(List.of(claimed), at));
            case RETRYABLE -> driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, state, scheduledAt, null,
                    JobJson.encodeError(error), 0)));
            default -> driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, state, null, at,
                    JobJson.encodeError(error), 0)));
        };
        assertThat(written).as("the outcome making job %d %s", claimed.id(), state).containsExactly(claimed.id());
        return stored(claimed.id());
    }

    private static JobInsertParams withState(JobInsertParams job, JobState state, Instant scheduledAt) {
        return new JobInsertParams(job.kind(), job.args(), job.queue(), job.priority(), state, job.createdAt(),
                scheduledAt, job.maxAttempts(), job.tags(), job.metadata());
    }

    /**
     * A job claimed at {@code at} whose attempt then moved it to {@code state} by its own write,
     * keeping the attempt's number, start and client (running: left as claimed). Returns the row the
     * claim returned: a write naming that attempt matches the job in everything but its state.
     */
    JobRow attemptThen(JobState state, Instant at) {
        JobRow claimed = claim(newQueue(), at, at);
        boolean isFinal = state.isFinal();
        long[] written = switch (state) {
            case RUNNING -> new long[] {claimed.id()};
            case COMPLETED -> driver.jobCompleteMany(JobCompleteManyParams.of(List.of(claimed), at));
            default -> driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, state,
                    isFinal ? null : state == JobState.AVAILABLE ? at : at.plusSeconds(60), isFinal ? at : null, null, 0)));
        };
        assertThat(written).as("the write moving job %d to %s", claimed.id(), state).containsExactly(claimed.id());
        assertThat(stored(claimed.id()).state()).isEqualTo(state);
        return claimed;
    }

    /** The job as stored now. */
    JobRow stored(long id) {
        return driver.jobGet(id).orElseThrow(() -> new AssertionError("job " + id + " is not stored"));
    }

    /** {@code row} under another id: a write naming it names a job that may not exist. */
    static JobRow withId(JobRow row, long id) {
        return new JobRow(id, row.kind(), row.args(), row.state(), row.queue(), row.priority(), row.attempt(),
                row.maxAttempts(), row.attemptedAt(), row.attemptedBy(), row.createdAt(), row.scheduledAt(),
                row.finalizedAt(), row.errors(), row.metadata(), row.tags());
    }

    /** A row naming an attempt of job {@code id} that was never made (number 0, never claimed). */
    static JobRow neverClaimed(long id, Instant at) {
        return new JobRow(id, "test_job", "{}", JobState.RUNNING, "default", 1, 0, 25, Optional.of(at),
                List.of(CLIENT), at, at, Optional.empty(), List.of(), "{}", List.of());
    }
}
