package dev.runnel.internal;

import dev.runnel.NotFoundException;
import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.driver.Driver;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicRemoveParams;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** What {@link dev.runnel.Periodic} does with the driver: the cluster's periodic jobs stored, removed and paused. */
public final class PeriodicAdmin {
    private final Driver driver;
    private final Clock clock;

    public PeriodicAdmin(Driver driver, Clock clock) {
        this.driver = driver;
        this.clock = clock;
    }

    public List<PeriodicRow> list() {
        return driver.periodicList();
    }

    public Optional<PeriodicRow> get(String name) {
        PeriodicJob.validateName(name);
        return list().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** Stores {@code job}, its args already written with the client's mapper; whether it changed. */
    public boolean upsert(PeriodicJob job) {
        return driver.periodicUpsert(PeriodicDefinitions.upsert(job, false, clock.instant()));
    }

    public void remove(String name) {
        if (!driver.periodicRemove(new PeriodicRemoveParams(PeriodicJob.validateName(name), clock.instant()))) {
            throw notFound(name);
        }
    }

    public void setPaused(String name, boolean paused) {
        if (!driver.periodicSetPaused(new PeriodicPauseParams(PeriodicJob.validateName(name), paused, clock.instant()))) {
            throw notFound(name);
        }
    }

    private static NotFoundException notFound(String name) {
        return new NotFoundException("no periodic job named " + name);
    }
}
