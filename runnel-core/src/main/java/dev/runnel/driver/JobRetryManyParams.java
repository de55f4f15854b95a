package dev.runnel.driver;

import java.time.Instant;

/** Make jobs {@code ids} available at {@code now}. Internal SPI. */
public record JobRetryManyParams(long[] ids, Instant now) {}
