package dev.runnel.internal;

import dev.runnel.driver.Driver;
import java.time.Duration;

/**
 * Keeps the database's planner statistics for the job table in step with its size while it grows
 * from small ({@link Driver#jobStatisticsRefresh}): a claim planned when the table held a few pages
 * would otherwise read the whole table, a little more each time, until autovacuum next analyzes it.
 * Runs on the leader, every {@link #INTERVAL}; on a table whose size is steady, each round is one
 * read of the catalog.
 */
public final class StatisticsKeeper extends MaintenanceTicker {
    /** How often the leader compares the table's size with its statistics: 1 s. */
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private final Driver driver;

    public StatisticsKeeper(Driver driver, Leadership leadership) {
        super("statistics", INTERVAL, leadership);
        this.driver = driver;
    }

    @Override
    protected boolean maintain() {
        driver.jobStatisticsRefresh();
        return false;
    }
}
