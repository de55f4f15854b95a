package dev.runnel.driver;

import java.time.Instant;

/**
 * Claim up to {@code max} jobs of {@code queue} due at {@code now}, for client {@code clientId}.
 * With {@code atMostOnce} the claim moves them straight to completed ({@code finalized_at = now})
 * instead of running, so that no completion write follows. Internal SPI.
 */
public record JobClaimParams(String queue, int max, Instant now, String clientId, boolean atMostOnce) {
    /** An at-least-once claim: jobs move to running. */
    public JobClaimParams(String queue, int max, Instant now, String clientId) {
        this(queue, max, now, clientId, false);
    }
}
