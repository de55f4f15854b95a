package dev.runnel.internal;

import dev.runnel.driver.Times;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The times one client's claims are made at: the client's clock, cut to microseconds, but always
 * later than the client's previous claim. So a claim's time, stored as {@code attempted_at} with
 * the client's id, names that claim alone: outcome writes are fenced by it (an attempt that was
 * rescued and claimed again, even by the same client, is never overwritten), and the jobs of a
 * claim whose reply was lost can be found again.
 */
public final class ClaimClock {
    private final Clock clock;
    private final AtomicLong last = new AtomicLong(Long.MIN_VALUE);

    public ClaimClock(Clock clock) {
        this.clock = clock;
    }

    /** A time later than every one handed out before, and no earlier than the clock's. */
    public Instant next() {
        long now = Times.toMicros(clock.instant());
        long prev;
        long next;
        do {
            prev = last.get();
            next = Math.max(now, prev + 1);
        } while (!last.compareAndSet(prev, next));
        return Times.fromMicros(next);
    }
}
