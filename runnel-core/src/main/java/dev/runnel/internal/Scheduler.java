package dev.runnel.internal;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobScheduleParams;
import java.time.Clock;
import java.time.Duration;

/**
 * Makes scheduled and retryable jobs available once they are due, in bounded batches, and wakes
 * the producers when it moved any. The update is idempotent, so until leader election lands every
 * client may run it.
 */
public final class Scheduler extends Ticker {
    /** Most jobs made available by one statement, to keep write transactions short. */
    static final int BATCH = 10_000;

    private final Driver driver;
    private final Clock clock;
    private final Runnable onScheduled;

    public Scheduler(Driver driver, Clock clock, Duration interval, Runnable onScheduled) {
        super("scheduler", interval);
        this.driver = driver;
        this.clock = clock;
        this.onScheduled = onScheduled;
    }

    @Override
    protected boolean tick() {
        int moved = driver.jobScheduleDue(new JobScheduleParams(clock.instant(), BATCH));
        if (moved > 0) {
            onScheduled.run();
        }
        return moved == BATCH;
    }
}
