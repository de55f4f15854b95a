package dev.runnel.driver;

import java.time.Instant;

/**
 * Registers client {@code id} or renews it: alive until {@code expiresAt}. {@code metadata} is a
 * JSON object. Internal SPI.
 */
public record ClientHeartbeatParams(String id, Instant now, Instant expiresAt, String metadata) {}
