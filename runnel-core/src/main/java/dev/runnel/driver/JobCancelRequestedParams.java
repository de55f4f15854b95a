package dev.runnel.driver;

/**
 * Of the running jobs {@code ids} (the asking client's), find those whose cancel was requested.
 * Internal SPI.
 */
public record JobCancelRequestedParams(long[] ids) {}
