package dev.runnel.driver;

import dev.runnel.RateLimit;
import java.time.Instant;
import java.util.Optional;

/** Set queue {@code queue}'s rate limit to {@code limit} (empty: none) at {@code now}. Internal SPI. */
public record QueueRateLimitParams(String queue, Optional<RateLimit> limit, Instant now) {}
