package dev.runnel.internal;

import java.time.Duration;

/** A maintenance service: runs its tick only while this client leads. */
abstract class MaintenanceTicker extends Ticker {
    private final Leadership leadership;

    MaintenanceTicker(String name, Duration interval, Leadership leadership) {
        super(name, interval);
        this.leadership = leadership;
    }

    /** One round of work, run only by the leader; returns true to run again at once. */
    protected abstract boolean maintain();

    @Override
    protected final boolean tick() {
        return leadership.isLeader() && maintain();
    }
}
