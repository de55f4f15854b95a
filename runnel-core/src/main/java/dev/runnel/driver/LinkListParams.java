package dev.runnel.driver;

/** Up to {@code limit} workflows or batches newest first, those with ids below {@code beforeId} (0: from the newest). Internal SPI. */
public record LinkListParams(int limit, long beforeId) {}
