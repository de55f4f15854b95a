package dev.runnel.internal;

import dev.runnel.JobCount;
import dev.runnel.driver.Driver;
import java.time.Duration;
import java.util.List;

/**
 * Counts the cluster's jobs by queue and state for the runtime listeners (queue-depth gauges),
 * on the leader only and once per interval: the count reads the whole table, so its cost is
 * bounded by the interval, not multiplied by the clients or by how often a metrics system
 * scrapes. Runs only when the client has runtime listeners. When this client stops leading, or
 * stops, it says so once, so that its counts are not taken for current.
 */
final class JobCounter extends Ticker {
    private final Driver driver;
    private final Leadership leadership;
    private final RuntimeListeners listeners;
    /** Whether the listeners last heard counts from this client; only the ticker's thread and stop touch it. */
    private volatile boolean counting;

    JobCounter(Driver driver, Duration interval, Leadership leadership, RuntimeListeners listeners) {
        super("job-counter", interval);
        this.driver = driver;
        this.leadership = leadership;
        this.listeners = listeners;
    }

    @Override
    protected boolean tick() {
        if (!leadership.isLeader()) {
            stopCounting();
            return false;
        }
        List<JobCount> counts = driver.jobCountByState();
        counting = true;
        listeners.jobCounts(counts);
        return false;
    }

    @Override
    public void stop() {
        super.stop();
        stopCounting();
    }

    private void stopCounting() {
        if (counting) {
            counting = false;
            listeners.jobCountsStopped();
        }
    }
}
