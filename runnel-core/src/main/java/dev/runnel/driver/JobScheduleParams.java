package dev.runnel.driver;

import java.time.Instant;

/** Make at most {@code limit} scheduled or retryable jobs due at {@code now} available. Internal SPI. */
public record JobScheduleParams(Instant now, int limit) {}
