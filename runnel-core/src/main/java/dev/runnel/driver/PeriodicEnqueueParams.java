package dev.runnel.driver;

import java.time.Instant;

/**
 * Moves periodic job {@code name} on from tick {@code firedThrough} to {@code tick} and, when
 * {@code enqueue}, enqueues that tick's job, all in one statement or transaction, and only if the
 * job is still as it was read: its definition {@code hash} and its {@code firedThrough} unchanged,
 * not paused, not removed, and the lease held. So each tick is enqueued once, however many clients
 * believe they lead and whatever failed before: a second attempt at the same tick finds
 * {@code firedThrough} moved on and changes nothing. The job is available at the lease's
 * {@code now}, with the periodic job's kind, args and options, and {@code {"periodic": name,
 * "tick": tick}} added to its metadata. Without {@code enqueue}, missed ticks are dropped. Internal SPI.
 */
public record PeriodicEnqueueParams(Lease lease, String name, String hash, Instant firedThrough, Instant tick,
        boolean enqueue) {
    public PeriodicEnqueueParams {
        firedThrough = Times.truncate(firedThrough);
        tick = Times.truncate(tick);
    }
}
