package dev.runnel.driver;

/** Apply ({@code up}) or revert {@code migration}. Internal SPI. */
public record MigrationApplyParams(Migration migration, boolean up) {}
