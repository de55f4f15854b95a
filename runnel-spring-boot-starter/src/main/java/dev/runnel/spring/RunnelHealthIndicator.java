package dev.runnel.spring;

import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.LeaderRow;
import dev.runnel.QueueRow;
import dev.runnel.Runnel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Runnel's part of {@code /actuator/health}: DOWN when the database cannot be reached, when a
 * client that works jobs has seen no leader for longer than a new one takes to be elected (so
 * nobody schedules, rescues or cleans), or when a queue it works is stuck: not paused, and its
 * oldest available job has waited longer than {@code runnel.health.stuck-after}. The details name
 * the driver, this client, the leader and each queue's oldest wait.
 */
public final class RunnelHealthIndicator extends AbstractHealthIndicator {
    private final Runnel runnel;
    private final RunnelLifecycle lifecycle;
    private final Set<String> queues;
    private final Duration stuckAfter;
    private final Duration electionGrace;
    private final Clock clock;

    RunnelHealthIndicator(Runnel runnel, RunnelLifecycle lifecycle, Set<String> queues, Duration stuckAfter,
            Duration electionGrace, Clock clock) {
        super("Runnel health check failed");
        this.runnel = runnel;
        this.lifecycle = lifecycle;
        this.queues = queues;
        this.stuckAfter = stuckAfter;
        this.electionGrace = electionGrace;
        this.clock = clock;
    }

    @Override
    protected void doHealthCheck(Health.Builder health) {
        Instant now = clock.instant();
        health.withDetail("driver", runnel.driverName()).withDetail("client", runnel.id());
        // The first read proves the database answers; an exception makes the indicator DOWN with it.
        Optional<LeaderRow> leader = runnel.leader().filter(l -> l.expiresAt().isAfter(now));
        health.withDetail("leader", leader.map(LeaderRow::leaderId).orElse("none"));
        List<String> problems = new ArrayList<>();
        boolean working = lifecycle.works() && lifecycle.isRunning();
        if (working && leader.isEmpty()
                && lifecycle.startedAt().map(t -> t.plus(electionGrace).isBefore(now)).orElse(false)) {
            problems.add("no leader: due scheduled jobs, rescues and cleaning wait");
        }
        if (working && !stuckAfter.isZero()) {
            Map<String, Object> waits = new LinkedHashMap<>();
            Map<String, QueueRow> rows = new LinkedHashMap<>();
            runnel.queues().list().forEach(q -> rows.put(q.name(), q));
            for (String queue : queues) {
                boolean paused = Optional.ofNullable(rows.get(queue)).map(QueueRow::paused).orElse(false);
                Optional<Duration> wait = runnel.jobList(JobQuery.inStates(JobState.AVAILABLE).queue(queue).limit(1))
                        .stream().findFirst().map(JobRow::scheduledAt).map(t -> Duration.between(t, now));
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("paused", paused);
                detail.put("oldestAvailableWait", wait.map(Duration::toString).orElse("none"));
                waits.put(queue, detail);
                if (!paused && wait.isPresent() && wait.get().compareTo(stuckAfter) > 0) {
                    problems.add("queue " + queue + " is stuck: its oldest available job has waited " + wait.get()
                            + ", more than runnel.health.stuck-after (" + stuckAfter + ")");
                }
            }
            health.withDetail("queues", waits);
        }
        if (problems.isEmpty()) {
            health.up();
        } else {
            health.down().withDetail("problems", problems);
        }
    }
}
