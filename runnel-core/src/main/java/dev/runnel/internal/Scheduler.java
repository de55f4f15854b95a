package dev.runnel.internal;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobScheduleParams;
import java.time.Clock;
import java.time.Duration;

/**
 * Makes scheduled and retryable jobs available once they are due, in bounded batches, and wakes
 * this client's producers when it moved any (other clients hear of it by notification, or poll).
 * Runs on the leader; its update is idempotent besides, so a second client that believes it leads
 * does no harm.
 */
public final class Scheduler extends MaintenanceTicker {
    /** Most jobs made available by one statement, to keep write transactions short. */
    static final int BATCH = 10_000;

    private final Driver driver;
    private final Clock clock;
    private final Runnable onScheduled;

    public Scheduler(Driver driver, Clock clock, Duration interval, Leadership leadership, Runnable onScheduled) {
        super("scheduler", interval, leadership);
        this.driver = driver;
        this.clock = clock;
        this.onScheduled = onScheduled;
    }

    @Override
    protected boolean maintain() {
        int moved = driver.jobScheduleDue(new JobScheduleParams(clock.instant(), BATCH));
        if (moved > 0) {
            onScheduled.run();
        }
        return moved == BATCH;
    }
}
