package dev.runnel.internal;

import dev.runnel.PeriodicRow;
import dev.runnel.Schedule;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.Lease;
import dev.runnel.driver.PeriodicEnqueueParams;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enqueues periodic jobs' ticks as they come due. Runs on the leader, every scheduler interval:
 * reads the periodic jobs (a small table, so changes made from any client are picked up at the
 * next round) and, for each due tick, moves the job's {@code fired_through} on from the value it
 * read to the tick and inserts the tick's job in one statement (one transaction on SQLite). Two
 * clients that both believe they lead, a leader that lost its lease mid-round, a retry after an
 * unclear failure: each finds {@code fired_through} moved on, or the lease gone, and changes
 * nothing, so a tick is enqueued once. The progress lives in that column, not in memory and not
 * in job rows that the cleaner deletes, so a new leader goes on where the last one stopped.
 */
public final class PeriodicEnqueuer extends MaintenanceTicker {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicEnqueuer.class);
    /** Most ticks of one job per round; a backlog of ticks still due on time goes on at once in the next. */
    static final int MAX_TICKS = 100;

    /** @param grace how late a tick may be enqueued before it counts as missed */
    public record Config(String clientId, Duration interval, Duration grace) {}

    private final Driver driver;
    private final Clock clock;
    private final Config config;
    private final Consumer<String> wake;
    /** Parsed schedules by zone and text: a cron expression is parsed once, not every round. */
    private final Map<String, Schedule> schedules = new HashMap<>();
    /** Definitions already warned about (by hash), so that a broken one is logged once, not every second. */
    private final Set<String> warned = new HashSet<>();

    public PeriodicEnqueuer(Driver driver, Clock clock, Config config, Leadership leadership, Consumer<String> wake) {
        super("periodic", config.interval(), leadership);
        this.driver = driver;
        this.clock = clock;
        this.config = config;
        this.wake = wake;
    }

    @Override
    protected boolean maintain() {
        Instant now = clock.instant();
        boolean more = false;
        for (PeriodicRow row : driver.periodicList()) {
            if (row.paused()) {
                continue;
            }
            Schedule schedule = schedule(row);
            if (schedule == null) {
                continue;
            }
            List<PeriodicPlan.Step> steps;
            try {
                steps = PeriodicPlan.plan(schedule, row.catchUp(), row.firedThrough(), now, config.grace(), MAX_TICKS);
            } catch (RuntimeException e) {
                // The cron library failing on one expression must not hold up the other jobs.
                warnOnce(row, "its next tick could not be computed: " + e);
                continue;
            }
            try {
                more |= run(row, steps, now) && steps.size() == MAX_TICKS;
            } catch (DataRejectedException e) {
                // One job's data refused must not hold up the others' ticks.
                warnOnce(row, "its job was refused by the database: " + e.getMessage());
            }
        }
        return more;
    }

    /** Takes the steps in order; returns false at the first that another client (or an edit) got to first. */
    private boolean run(PeriodicRow row, List<PeriodicPlan.Step> steps, Instant now) {
        Instant through = row.firedThrough();
        boolean enqueued = false;
        boolean all = true;
        for (PeriodicPlan.Step step : steps) {
            if (!driver.periodicEnqueue(new PeriodicEnqueueParams(new Lease(config.clientId(), now), row.name(),
                    row.hash(), through, step.tick(), step.enqueue()))) {
                all = false; // moved on by another client, edited, paused or removed, or the lease is lost
                break;
            }
            if (step.enqueue()) {
                enqueued = true;
                if (step.tick().isBefore(now.minus(config.grace()))) {
                    LOG.info("periodic job {}: enqueued its missed tick {} late (catch-up latest)", row.name(),
                            step.tick());
                }
            } else {
                LOG.info("periodic job {}: dropped its ticks missed up to {} (catch-up skip)", row.name(), step.tick());
            }
            through = step.tick();
        }
        if (enqueued) {
            wake.accept(row.queue());
        }
        return all;
    }

    private Schedule schedule(PeriodicRow row) {
        String key = row.zone() + "\n" + row.schedule();
        Schedule schedule = schedules.get(key);
        if (schedule == null) {
            try {
                schedule = row.parsedSchedule();
            } catch (IllegalArgumentException e) {
                warnOnce(row, "its stored schedule does not parse: " + e.getMessage());
                return null;
            }
            if (schedules.size() > 10_000) {
                schedules.clear();
            }
            schedules.put(key, schedule);
        }
        return schedule;
    }

    private void warnOnce(PeriodicRow row, String problem) {
        if (warned.add(row.hash())) {
            LOG.warn("periodic job {} is not enqueued: {} (tried again every round, logged once per definition)",
                    row.name(), problem);
        }
    }
}
