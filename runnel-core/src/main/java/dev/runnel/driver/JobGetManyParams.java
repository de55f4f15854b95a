package dev.runnel.driver;

/** Read the jobs with ids {@code ids}. Internal SPI. */
public record JobGetManyParams(long[] ids) {}
