package dev.runnel.driver;

import java.time.Instant;

/** Claim up to {@code max} jobs of {@code queue} due at {@code now}, for client {@code clientId}. Internal SPI. */
public record JobClaimParams(String queue, int max, Instant now, String clientId) {}
