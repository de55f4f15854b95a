package dev.runnel.driver;

import dev.runnel.JobState;
import java.time.Instant;
import java.util.List;

/**
 * One job to insert, fully resolved (defaults applied, args encoded). Internal SPI.
 *
 * @param state {@code available} or {@code scheduled}
 * @param metadata a JSON object
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
        String metadata) {}
