package dev.runnel.driver;

import dev.runnel.JobRow;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Running jobs that completed, as parallel arrays: job {@code ids[i]}, in the attempt numbered
 * {@code attempts[i]} that started at {@code attemptedAtMicros[i]}, finished at
 * {@code finalizedAtMicros[i]} (microseconds since the epoch), all attempts of client
 * {@code clientId}. Only a job still running in exactly that attempt of that client is written: a
 * write repeated after an unclear failure, or arriving after the job was rescued and claimed again,
 * changes nothing. Arrays, not objects, because this is the hot path. With {@code delete}, each job
 * written is deleted instead of kept as completed: its client keeps no completed jobs (their
 * retention is zero), and a delete costs the database less than the update that the cleaner's
 * delete would follow. Internal SPI.
 */
public record JobCompleteManyParams(
        long[] ids, long[] finalizedAtMicros, int[] attempts, long[] attemptedAtMicros, int size, String clientId,
        boolean delete) {

    /** Completions that keep the jobs, as completed. */
    public JobCompleteManyParams(long[] ids, long[] finalizedAtMicros, int[] attempts, long[] attemptedAtMicros,
            int size, String clientId) {
        this(ids, finalizedAtMicros, attempts, attemptedAtMicros, size, clientId, false);
    }

    /** These completions, deleting the jobs they write. */
    public JobCompleteManyParams deleting() {
        return new JobCompleteManyParams(ids, finalizedAtMicros, attempts, attemptedAtMicros, size, clientId, true);
    }

    /** The completion of jobs as {@code claimed} returned them, all at {@code finalizedAt}: for tests and tools. */
    public static JobCompleteManyParams of(List<JobRow> claimed, Instant finalizedAt) {
        long[] at = new long[claimed.size()];
        Arrays.fill(at, Times.toMicros(finalizedAt));
        return of(claimed, at, claimed.isEmpty() ? "" : holder(claimed.getFirst()));
    }

    /**
     * The completion of the attempts of client {@code clientId} that {@code claimed} describe, the
     * {@code i}th finished at {@code finalizedAtMicros[i]}.
     */
    public static JobCompleteManyParams of(List<JobRow> claimed, long[] finalizedAtMicros, String clientId) {
        int n = claimed.size();
        long[] ids = new long[n];
        int[] attempts = new int[n];
        long[] attemptedAt = new long[n];
        for (int i = 0; i < n; i++) {
            JobRow job = claimed.get(i);
            ids[i] = job.id();
            attempts[i] = job.attempt();
            attemptedAt[i] = Times.toMicros(job.attemptedAt().orElseThrow());
        }
        return new JobCompleteManyParams(ids, finalizedAtMicros, attempts, attemptedAt, n, clientId);
    }

    /** The client holding {@code job}'s current attempt: the last one recorded in {@code attempted_by}. */
    static String holder(JobRow job) {
        return job.attemptedBy().isEmpty() ? "" : job.attemptedBy().getLast();
    }
}
