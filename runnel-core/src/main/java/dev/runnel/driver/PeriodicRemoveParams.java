package dev.runnel.driver;

import java.time.Instant;

/** Remove periodic job {@code name} at {@code now}. Internal SPI. */
public record PeriodicRemoveParams(String name, Instant now) {}
