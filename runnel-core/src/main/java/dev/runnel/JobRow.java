package dev.runnel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.json.RunnelJson;
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
        return metadataValue(RunnelJson.OUTPUT_KEY).map(JsonNode::toString);
    }

    /**
     * How many times the job was snoozed ({@link JobSnooze}): snoozes do not use up attempts, so a
     * worker that snoozes while waiting on something can bound its waiting with this count.
     */
    public int snoozes() {
        return metadataValue(RunnelJson.SNOOZES_KEY).map(JsonNode::asInt).orElse(0);
    }

    private Optional<JsonNode> metadataValue(String key) {
        if (!metadata.contains("\"" + key + "\"")) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(RunnelJson.READER.readTree(metadata).get(key));
        } catch (JsonProcessingException e) {
            throw new RunnelException("the metadata of job " + id + " is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The error of the latest failed attempt, if any. */
    public Optional<JobError> lastError() {
        return errors.isEmpty() ? Optional.empty() : Optional.of(errors.getLast());
    }
}
