package dev.runnel.driver;

import java.time.Instant;

/**
 * The leader's lease as a maintenance statement carries it: the statement changes nothing unless
 * {@code leaderId} holds the lease at {@code now}. A leader that was paused past its lease (a long
 * GC, a frozen VM) and resumes believing it still leads can then do no harm. Internal SPI.
 */
public record Lease(String leaderId, Instant now) {
    public Lease {
        now = Times.truncate(now);
    }
}
