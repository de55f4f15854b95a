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

    /** What decodes the rows this claim returns: one per claim, shared by all its rows. */
    public Rows rows() {
        return new Rows(this);
    }

    /**
     * The jobs one claim returned, built from the columns the claim statements read back. Their
     * queue, their state, the attempt's time and, at most once, the finalisation are the claim's
     * own, at its {@code now}; the values every row of the claim has alike are made once, not once
     * per row (each object a claim makes per row is made for every job).
     */
    public static final class Rows {
        private final JobClaimParams claim;
        private final JobState state;
        private final Optional<Instant> attemptedAt;
        private final Optional<Instant> finalizedAt;
        private final List<String> onlyClient;

        private Rows(JobClaimParams claim) {
            this.claim = claim;
            this.state = claim.atMostOnce ? JobState.COMPLETED : JobState.RUNNING;
            this.attemptedAt = Optional.of(claim.now);
            this.finalizedAt = claim.atMostOnce ? attemptedAt : Optional.empty();
            this.onlyClient = List.of(claim.clientId);
        }

        /**
         * A job of this claim. {@code attemptedBy} is as returned: an at-least-once claim stored
         * this client already; an at-most-once claim deleted the row, so the client is added here.
         * Empty stands for this client alone, and a null {@code metadata} for the empty object: the
         * claim statements send nothing for either, the common case.
         */
        public JobRow row(long id, String kind, String args, int priority, int attempt, int maxAttempts,
                List<String> attemptedBy, Instant createdAt, Instant scheduledAt, List<JobError> errors,
                String metadata, List<String> tags) {
            List<String> by = attemptedBy;
            if (attemptedBy.isEmpty()) {
                by = onlyClient;
            } else if (claim.atMostOnce) {
                by = new ArrayList<>(attemptedBy.size() + 1);
                by.addAll(attemptedBy.subList(Math.max(0, attemptedBy.size() - (MAX_ATTEMPTED_BY - 1)),
                        attemptedBy.size()));
                by.add(claim.clientId);
            }
            return new JobRow(id, kind, args, state, claim.queue, priority, attempt, maxAttempts, attemptedAt, by,
                    createdAt, scheduledAt, finalizedAt, errors, metadata == null ? "{}" : metadata, tags);
        }
    }
}
