package dev.runnel.internal;

import dev.runnel.JobState;
import dev.runnel.driver.ClientListDeadParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.Lease;
import dev.runnel.driver.RescuedJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives the running jobs of dead clients back to be run again. A client is dead once its
 * heartbeat expired (or it stopped with jobs still running): its jobs are rescued within a tick of
 * that, made retryable at once, or discarded when out of attempts or rescued for the
 * {@value #MAX_RESCUES}th time (a job that keeps killing the process that runs it must not take
 * down one process after another). A job on a live client is never rescued, however long it runs.
 * As a backstop, a job of a client that is not registered at all is rescued once its attempt is
 * older than the threshold, in a sweep every tenth of it.
 *
 * <p>Runs on the leader, and only once the leader has reached the database without a break for a
 * whole heartbeat timeout: after an outage every heartbeat has lapsed, and the living need that
 * long to heartbeat again. Its statements check the lease besides.
 */
public final class Rescuer extends MaintenanceTicker {
    private static final Logger LOG = LoggerFactory.getLogger(Rescuer.class);
    /** The rescue that discards a job: the third. */
    public static final int MAX_RESCUES = 3;
    /** Most jobs rescued by one statement. */
    static final int BATCH = 1_000;

    /**
     * @param heartbeatTimeout how long a client may go without a heartbeat before it counts as dead
     * @param threshold how old the attempt of a job of an unregistered client must be to be rescued
     */
    public record Config(String clientId, Duration interval, Duration heartbeatTimeout, Duration threshold) {}

    private final Driver driver;
    private final Clock clock;
    private final Config config;
    private final ClientHealth health;
    /**
     * When the threshold sweep, a scan of the table, next runs: a tenth of the threshold after the
     * last one, and the first that long after start, not at once (a client that starts under load
     * should not begin with a scan; jobs of unknown clients have waited the threshold anyway).
     */
    private long nextSweepNanos;

    public Rescuer(Driver driver, Clock clock, Config config, Leadership leadership, ClientHealth health) {
        super("rescuer", config.interval(), leadership);
        this.driver = driver;
        this.clock = clock;
        this.config = config;
        this.health = health;
        this.nextSweepNanos = System.nanoTime() + config.threshold().dividedBy(10).toNanos();
    }

    @Override
    protected boolean maintain() {
        if (!health.healthyFor(config.heartbeatTimeout())) {
            return false;
        }
        Instant now = clock.instant();
        List<String> dead = driver.clientListDead(new ClientListDeadParams(now));
        boolean sweep = System.nanoTime() - nextSweepNanos >= 0;
        if (dead.isEmpty() && !sweep) {
            return false;
        }
        Lease lease = new Lease(config.clientId(), now);
        Instant staleBefore = sweep ? now.minus(config.threshold()) : Instant.EPOCH;
        List<RescuedJob> rescued = driver.jobRescueMany(new JobRescueParams(lease, dead, staleBefore,
                config.threshold(), MAX_RESCUES, BATCH));
        report(rescued);
        if (rescued.size() == BATCH) {
            return true; // more to rescue before the clients count as done
        }
        driver.clientMarkRescued(new ClientRescuedParams(lease, dead));
        if (sweep) {
            nextSweepNanos = System.nanoTime() + config.threshold().dividedBy(10).toNanos();
        }
        return false;
    }

    private static void report(List<RescuedJob> rescued) {
        if (rescued.isEmpty()) {
            return;
        }
        Map<String, int[]> byClient = new TreeMap<>();
        for (RescuedJob job : rescued) {
            int[] counts = byClient.computeIfAbsent(String.valueOf(job.clientId()), k -> new int[2]);
            counts[job.state() == JobState.DISCARDED ? 1 : 0]++;
        }
        byClient.forEach((client, counts) -> LOG.warn("rescued {} jobs of client {}, which stopped heartbeating or is"
                + " unknown: {} to be retried, {} discarded (out of attempts, or rescued {} times)",
                counts[0] + counts[1], client, counts[0], counts[1], MAX_RESCUES));
    }
}
