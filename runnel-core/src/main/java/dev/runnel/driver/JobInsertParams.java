package dev.runnel.driver;

import dev.runnel.JobState;
import java.time.Instant;
import java.util.List;

/**
 * One job to insert, fully resolved (defaults applied, args encoded). Internal SPI.
 *
 * @param state {@code available} or {@code scheduled}
 * @param metadata a JSON object
 * @param uniqueKey the hashed unique key ({@link dev.runnel.UniqueOptions}), or null when the job is not unique
 * @param uniqueStates the states the key is held in, as {@link UniqueStates#mask}; 0 when not unique
 */
public record JobInsertParams(
        String kind,
        String args,
        String queue,
        int priority,
        JobState state,
        Instant createdAt,
        Instant scheduledAt,
        int maxAttempts,
        List<String> tags,
        String metadata,
        byte[] uniqueKey,
        int uniqueStates) {

    /** A job that is not unique. */
    public JobInsertParams(String kind, String args, String queue, int priority, JobState state, Instant createdAt,
            Instant scheduledAt, int maxAttempts, List<String> tags, String metadata) {
        this(kind, args, queue, priority, state, createdAt, scheduledAt, maxAttempts, tags, metadata, null, 0);
    }

    /** Whether the job has a unique key. */
    public boolean unique() {
        return uniqueKey != null;
    }

    /** Whether any of {@code jobs} is unique. */
    public static boolean anyUnique(List<JobInsertParams> jobs) {
        for (JobInsertParams job : jobs) {
            if (job.unique()) {
                return true;
            }
        }
        return false;
    }
}
