package dev.runnel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.driver.JobJson;
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

    /**
     * The output recorded by the attempt that completed this job ({@link Job#recordOutput}), as
     * compact JSON, if it recorded one: the {@code output} key of its metadata.
     */
    public Optional<String> output() {
        if (!metadata.contains("\"" + JobJson.OUTPUT_KEY + "\"")) {
            return Optional.empty();
        }
        try {
            JsonNode node = JobJson.READER.readTree(metadata).get(JobJson.OUTPUT_KEY);
            return node == null ? Optional.empty() : Optional.of(node.toString());
        } catch (JsonProcessingException e) {
            throw new RunnelException("the metadata of job " + id + " is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The error of the latest failed attempt, if any. */
    public Optional<JobError> lastError() {
        return errors.isEmpty() ? Optional.empty() : Optional.of(errors.getLast());
    }
}
