package dev.runnel.driver;

import java.time.Instant;
import java.util.OptionalInt;

/** Set queue {@code queue}'s global limit to {@code limit} (empty: none) at {@code now}. Internal SPI. */
public record QueueGlobalLimitParams(String queue, OptionalInt limit, Instant now) {}
