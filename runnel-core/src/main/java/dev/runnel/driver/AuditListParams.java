package dev.runnel.driver;

/**
 * Read up to {@code limit} audit entries, newest first, with ids below {@code beforeId} (0: from
 * the newest). Internal SPI.
 */
public record AuditListParams(long beforeId, int limit) {}
