package dev.runnel.driver;

import java.time.Instant;

/**
 * Pause ({@code paused}) or resume periodic job {@code name}. A resume drops the ticks that came
 * due while it was paused: ticks count from {@code now} on. Internal SPI.
 */
public record PeriodicPauseParams(String name, boolean paused, Instant now) {
    public PeriodicPauseParams {
        now = Times.truncate(now);
    }
}
