package dev.runnel.driver;

import java.time.Instant;

/**
 * Cancel jobs {@code ids} at {@code now}, recording {@code reason} on those cancelled at once.
 * Internal SPI.
 */
public record JobCancelParams(long[] ids, Instant now, String reason) {
    public JobCancelParams {
        now = Times.truncate(now);
    }
}
