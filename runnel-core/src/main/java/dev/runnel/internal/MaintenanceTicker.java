package dev.runnel.internal;

import java.time.Duration;

/**
 * A maintenance service: runs its tick only while this client leads. While it does not, it sleeps
 * {@link #FOLLOWER_WAIT} between looks; the {@link Elector} wakes it when this client wins the
 * lease.
 */
abstract class MaintenanceTicker extends Ticker {
    /**
     * How long a client that does not lead waits between looks at its leadership. Looking every
     * interval (a second for the scheduler and the periodic enqueuer), the maintenance threads of 19
     * idle followers cost 0.5% of a core (the threads' run time in /proc's schedstat) for nothing.
     */
    static final Duration FOLLOWER_WAIT = Duration.ofSeconds(30);

    private final Leadership leadership;

    MaintenanceTicker(String name, Duration interval, Leadership leadership) {
        super(name, interval);
        this.leadership = leadership;
    }

    @Override
    protected long waitNanos() {
        return leadership.isLeader() ? super.waitNanos() : Math.max(super.waitNanos(), FOLLOWER_WAIT.toNanos());
    }

    /** One round of work, run only by the leader; returns true to run again at once. */
    protected abstract boolean maintain();

    @Override
    protected final boolean tick() {
        return leadership.isLeader() && maintain();
    }
}
