package dev.runnel;

import java.time.Instant;

/**
 * The client holding the leader's lease, which runs the maintenance services (scheduler, rescuer,
 * cleaner) for the whole cluster, until {@code expiresAt} unless it renews.
 */
public record LeaderRow(String leaderId, Instant electedAt, Instant expiresAt) {}
