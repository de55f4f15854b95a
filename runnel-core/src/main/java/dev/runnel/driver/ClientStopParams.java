package dev.runnel.driver;

import java.time.Instant;

/** Client {@code id} stopped cleanly at {@code now}: it expires at once. Internal SPI. */
public record ClientStopParams(String id, Instant now) {}
