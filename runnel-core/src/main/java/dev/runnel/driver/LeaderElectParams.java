package dev.runnel.driver;

import java.time.Instant;

/**
 * Client {@code leaderId} asks for the leader's lease until {@code expiresAt}: it gets it when no
 * one holds it, when it holds it already (a renewal), or when the holder's lease ended by
 * {@code now}. Internal SPI.
 */
public record LeaderElectParams(String leaderId, Instant now, Instant expiresAt) {}
