package dev.runnel.driver;

import java.time.Instant;

/**
 * Give their keys to the waiting jobs without one of the queues whose per-key limit was set after
 * {@code since}. Internal SPI.
 */
public record QueueKeyStragglersParams(Instant since) {}
