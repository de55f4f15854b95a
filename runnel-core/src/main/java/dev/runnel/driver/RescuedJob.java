package dev.runnel.driver;

import dev.runnel.JobState;

/** A job the rescuer took from client {@code clientId}, now in {@code state}. Internal SPI. */
public record RescuedJob(long id, JobState state, String clientId) {}
