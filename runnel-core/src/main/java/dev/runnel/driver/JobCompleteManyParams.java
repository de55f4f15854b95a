package dev.runnel.driver;

/**
 * Running jobs that completed, as parallel arrays: {@code ids[i]} finished at
 * {@code finalizedAtMicros[i]} (microseconds since the epoch). Arrays, not objects, because this
 * is the hot path. Internal SPI.
 */
public record JobCompleteManyParams(long[] ids, long[] finalizedAtMicros, int size) {}
