package dev.runnel;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A job as stored, with its args still encoded as JSON. Returned by reads ({@link Runnel#jobGet},
 * {@link Runnel#jobList}) and carried by {@link JobEvent}s.
 */
public record JobRow(
        long id,
        String kind,
        String args,
        JobState state,
        String queue,
        int priority,
        int attempt,
        int maxAttempts,
        Optional<Instant> attemptedAt,
        List<String> attemptedBy,
        Instant createdAt,
        Instant scheduledAt,
        Optional<Instant> finalizedAt,
        List<JobError> errors,
        String metadata,
        List<String> tags) {

    public JobRow {
        attemptedBy = List.copyOf(attemptedBy);
        errors = List.copyOf(errors);
        tags = List.copyOf(tags);
    }

    /** The error of the latest failed attempt, if any. */
    public Optional<JobError> lastError() {
        return errors.isEmpty() ? Optional.empty() : Optional.of(errors.getLast());
    }
}
