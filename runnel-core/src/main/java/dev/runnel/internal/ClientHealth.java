package dev.runnel.internal;

import java.time.Duration;

/**
 * Whether this client has been reaching the database without a break, and for how long. The
 * rescuer needs it: after an outage every client's heartbeat has lapsed, the dead and the living
 * alike, and only a leader that has been connected for a whole heartbeat timeout since, long
 * enough for every living client to heartbeat again, can tell them apart.
 */
public final class ClientHealth {
    private static final long UNHEALTHY = Long.MIN_VALUE;

    /** Since when (a {@link System#nanoTime()}) every call succeeded, or {@link #UNHEALTHY}. */
    private volatile long healthySince = UNHEALTHY;

    /** A call to the database succeeded. */
    public void succeeded() {
        if (healthySince == UNHEALTHY) {
            healthySince = System.nanoTime();
        }
    }

    /** A call to the database failed: the connected time starts again at the next success. */
    public void failed() {
        healthySince = UNHEALTHY;
    }

    /** Whether every call has succeeded for at least {@code d}. */
    public boolean healthyFor(Duration d) {
        long since = healthySince;
        return since != UNHEALTHY && System.nanoTime() - since >= d.toNanos();
    }
}
