package dev.runnel;

/** How many jobs of a queue are in a state. */
public record JobCount(String queue, JobState state, long count) {}
