package dev.runnel.driver;

import java.time.Instant;
import java.util.Optional;

/** Pause ({@code paused}) or resume {@code queue}, or every queue when it is empty. Internal SPI. */
public record QueuePauseParams(Optional<String> queue, boolean paused, Instant now) {}
