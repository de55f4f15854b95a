package dev.runnel.driver;

/** Delete jobs {@code ids}, those not running. Internal SPI. */
public record JobDeleteManyParams(long[] ids) {}
