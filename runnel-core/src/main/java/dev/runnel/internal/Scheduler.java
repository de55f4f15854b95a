package dev.runnel.internal;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.QueueKeyStragglersParams;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

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

    /**
     * How long after a per-key limit is set the scheduler keeps looking for waiting jobs of its
     * queue without a key (inserted in a transaction that was open when it was set), and how often.
     */
    static final Duration KEY_STRAGGLERS_FOR = Duration.ofMinutes(10);
    static final Duration KEY_STRAGGLERS_EVERY = Duration.ofMinutes(1);

    private Instant lastStragglerSweep = Instant.EPOCH;

    @Override
    protected boolean maintain() {
        Instant now = clock.instant();
        if (Duration.between(lastStragglerSweep, now).compareTo(KEY_STRAGGLERS_EVERY) >= 0) {
            lastStragglerSweep = now;
            driver.queueKeyStragglers(new QueueKeyStragglersParams(now.minus(KEY_STRAGGLERS_FOR)));
        }
        int moved = driver.jobScheduleDue(new JobScheduleParams(clock.instant(), BATCH));
        if (moved > 0) {
            onScheduled.run();
        }
        return moved == BATCH;
    }
}
