package dev.runnel.driver;

import java.time.Instant;

/** List the clients expired by {@code now} whose jobs have not been rescued since. Internal SPI. */
public record ClientListDeadParams(Instant now) {}
