package dev.runnel.driver;

import dev.runnel.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Claim up to {@code max} jobs of {@code queue} due at {@code now}, for client {@code clientId}.
 * With {@code atMostOnce} the claim deletes them instead of moving them to running, and returns
 * them as completed at {@code now}: no completion write follows, and a success leaves no row.
 * Internal SPI.
 */
public record JobClaimParams(String queue, int max, Instant now, String clientId, boolean atMostOnce) {
    /** An at-least-once claim: jobs move to running. */
    public JobClaimParams(String queue, int max, Instant now, String clientId) {
        this(queue, max, now, clientId, false);
    }

    /** The state the claimed jobs are returned in: running, or completed at most once. */
    public JobState claimedState() {
        return atMostOnce ? JobState.COMPLETED : JobState.RUNNING;
    }

    /**
     * A claimed job's attempted_by, from what the claim returned: an at-least-once claim stored
     * this client already; an at-most-once claim deleted the row, so the client is added here.
     */
    public List<String> attemptedBy(List<String> returned) {
        if (!atMostOnce) {
            return returned;
        }
        List<String> all = new ArrayList<>(returned.size() + 1);
        all.addAll(returned);
        all.add(clientId);
        return all;
    }
}
