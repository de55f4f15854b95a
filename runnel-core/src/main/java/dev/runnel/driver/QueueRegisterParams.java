package dev.runnel.driver;

import java.time.Instant;
import java.util.List;

/**
 * A client starting at {@code now} works {@code queues}: each created if new, its
 * {@code updated_at} moved on. Internal SPI.
 */
public record QueueRegisterParams(List<String> queues, Instant now) {}
