package dev.runnel.driver;

import java.time.Instant;

/** A migration applied to a database. Internal SPI. */
public record MigrationRecord(int version, String name, Instant appliedAt) {}
