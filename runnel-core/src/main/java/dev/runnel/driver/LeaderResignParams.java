package dev.runnel.driver;

/** Client {@code leaderId} gives up the leader's lease, if it holds it. Internal SPI. */
public record LeaderResignParams(String leaderId) {}
