package dev.runnel.driver;

import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Claim up to {@code max} jobs of {@code queue} due at {@code now}, for client {@code clientId}.
 * With {@code atMostOnce} the claim deletes them instead of moving them to running, and returns
 * them as completed at {@code now}: no completion write follows, and a success leaves no row.
 * With {@code limited} the claim keeps to the queue's global limit; without, it claims nothing
 * from a queue that has one (the caller has not heard of it yet). Internal SPI.
 */
public record JobClaimParams(String queue, int max, Instant now, String clientId, boolean atMostOnce, boolean limited) {
    /**
     * The most clients {@code attempted_by} keeps, the latest ones: {@value}, as River keeps. A
     * job snoozed thousands of times must not grow without bound; the last entry, the client
     * holding the attempt, is always there.
     */
    public static final int MAX_ATTEMPTED_BY = 100;

    /** {@code now} is cut to whole microseconds, as both drivers store times. */
    public JobClaimParams {
        now = Times.truncate(now);
    }

    /** A claim of a queue without a global limit. */
    public JobClaimParams(String queue, int max, Instant now, String clientId, boolean atMostOnce) {
        this(queue, max, now, clientId, atMostOnce, false);
    }

    /** An at-least-once claim of a queue without a global limit: jobs move to running. */
    public JobClaimParams(String queue, int max, Instant now, String clientId) {
        this(queue, max, now, clientId, false, false);
    }

    /**
     * A job this claim returned, from the columns the claim statements read back. Its queue, its
     * state, the attempt's time and, at most once, the finalisation are the claim's own, at
     * {@code now}. {@code attemptedBy} is as returned: an at-least-once claim stored this client
     * already; an at-most-once claim deleted the row, so the client is added here. Empty stands for
     * this client alone, and a null {@code metadata} for the empty object: the claim statements
     * send nothing for either, the common case (each value a driver decodes costs it objects and
     * time for every job).
     */
    public JobRow claimedRow(long id, String kind, String args, int priority, int attempt,
            int maxAttempts, List<String> attemptedBy, Instant createdAt, Instant scheduledAt,
            List<JobError> errors, String metadata, List<String> tags) {
        List<String> by = attemptedBy;
        if (attemptedBy.isEmpty()) {
            by = List.of(clientId);
        } else if (atMostOnce) {
            by = new ArrayList<>(attemptedBy.size() + 1);
            by.addAll(attemptedBy.subList(Math.max(0, attemptedBy.size() - (MAX_ATTEMPTED_BY - 1)), attemptedBy.size()));
            by.add(clientId);
        }
        return new JobRow(id, kind, args, atMostOnce ? JobState.COMPLETED : JobState.RUNNING, queue, priority,
                attempt, maxAttempts, Optional.of(now), by, createdAt, scheduledAt,
                atMostOnce ? Optional.of(now) : Optional.empty(), errors, metadata == null ? "{}" : metadata, tags);
    }
}
