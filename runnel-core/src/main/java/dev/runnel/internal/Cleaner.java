package dev.runnel.internal;

import dev.runnel.JobState;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.Lease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Deletes final jobs once their state's retention has passed, and clients that have been gone for
 * long, in batches of {@value #BATCH}: each statement holds its locks (on SQLite, the one writer)
 * only briefly, and a backlog is worked off batch after batch. Runs on the leader; its statements
 * check the lease.
 */
public final class Cleaner extends MaintenanceTicker {
    /**
     * Most jobs deleted by one statement. A delete of 5,000 rows takes tens of milliseconds, short
     * enough not to hold up the claims that share the table (and, on SQLite, its writer).
     */
    static final int BATCH = 5_000;
    /** How long a client that stopped or died stays listed. */
    public static final Duration CLIENT_RETENTION = Duration.ofHours(1);

    /** @param retention how long each final state's jobs are kept; a state absent is kept forever */
    public record Config(String clientId, Duration interval, Map<JobState, Duration> retention) {
        public Config {
            retention = Map.copyOf(retention);
        }
    }

    private final Driver driver;
    private final Clock clock;
    private final Config config;

    public Cleaner(Driver driver, Clock clock, Config config, Leadership leadership) {
        super("cleaner", config.interval(), leadership);
        this.driver = driver;
        this.clock = clock;
        this.config = config;
    }

    @Override
    protected boolean maintain() {
        Instant now = clock.instant();
        Lease lease = new Lease(config.clientId(), now);
        boolean more = false;
        for (Map.Entry<JobState, Duration> kept : config.retention().entrySet()) {
            int deleted = driver.jobDeleteFinalized(new JobDeleteFinalizedParams(lease, kept.getKey(),
                    now.minus(kept.getValue()), BATCH));
            more |= deleted == BATCH;
        }
        driver.clientDeleteExpired(new ClientDeleteParams(lease, now.minus(CLIENT_RETENTION)));
        return more;
    }
}
