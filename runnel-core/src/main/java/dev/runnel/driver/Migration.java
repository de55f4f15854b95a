package dev.runnel.driver;

/** One numbered schema migration and its SQL each way. Internal SPI. */
public record Migration(int version, String name, String up, String down) {}
