package dev.runnel.driver;

import dev.runnel.KeyLimit;
import java.time.Instant;
import java.util.Optional;

/** Set queue {@code queue}'s per-key limit to {@code limit} (empty: none) at {@code now}. Internal SPI. */
public record QueueKeyLimitParams(String queue, Optional<KeyLimit> limit, Instant now) {}
