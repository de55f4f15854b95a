package dev.runnel.web.internal;

import dev.runnel.ClientRow;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.LeaderRow;
import dev.runnel.Runnel;
import dev.runnel.web.internal.Models.ClientView;
import dev.runnel.web.internal.Models.PeriodicView;
import dev.runnel.web.internal.Models.QueueView;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The reads the pages and the API share, each one a call of the public API. */
final class Snapshots {
    private static final Logger LOG = LoggerFactory.getLogger(Snapshots.class);
    /** Running jobs read to count each client's: running jobs are few, and read through their own index. */
    private static final int RUNNING_SCAN = JobQuery.MAX_LIMIT;

    /**
     * How long one reading of the counts serves every page and refresh: many open tabs polling
     * every few seconds then cost the database one count, not one each. The counts take tens of
     * milliseconds on 10 million jobs (docs/benchmarks.md), most of a page's time.
     */
    static final java.time.Duration COUNTS_FRESH = java.time.Duration.ofSeconds(2);

    private record Cached(Instant at, Views.Counts counts) {}

    private final Runnel runnel;
    private final Clock clock;
    private volatile Cached cached;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    /** How many changes were made through the dashboard: a background reading older than the last one is dropped. */
    private volatile long changes;

    Snapshots(Runnel runnel, Clock clock) {
        this.runnel = runnel;
        this.clock = clock;
    }

    /**
     * The counts: read at once when there are none (first, or after a change), else the last
     * reading, refreshed in the background once it is older than {@link #COUNTS_FRESH}, so that no
     * request waits for a count (on 10 million jobs a reading took 330 to 800 ms on a busy disk).
     */
    Views.Counts counts() {
        Instant now = clock.instant();
        Cached c = cached;
        if (c == null) {
            return refresh(now);
        }
        if ((c.at().plus(COUNTS_FRESH).isBefore(now) || c.at().isAfter(now)) && refreshing.compareAndSet(false, true)) {
            Thread.ofVirtual().name("runnel-web-counts").start(() -> {
                try {
                    refresh(clock.instant());
                } catch (RuntimeException e) {
                    LOG.warn("the dashboard could not refresh its counts: {}", e.toString());
                } finally {
                    refreshing.set(false);
                }
            });
        }
        return c.counts();
    }

    private Views.Counts refresh(Instant now) {
        long before = changes;
        Cached c = new Cached(now, Views.Counts.of(runnel.jobs().counts()));
        synchronized (this) {
            // A reading begun before a change may not show it: kept only when no change came since.
            if (changes == before) {
                cached = c;
            }
        }
        return c.counts();
    }

    /** Forgets the counts after a change, so the page the change redirects to shows its effect. */
    synchronized void changed() {
        changes++;
        cached = null;
    }

    List<QueueView> queues() {
        Views.Counts counts = counts();
        return runnel.queues().list().stream()
                .map(q -> new QueueView(q, counts.byQueue().getOrDefault(q.name(), Map.of())))
                .toList();
    }

    List<ClientView> clients() {
        Instant now = clock.instant();
        Optional<String> leader = runnel.leader().filter(l -> l.expiresAt().isAfter(now)).map(LeaderRow::leaderId);
        Map<String, Long> running = new HashMap<>();
        for (JobRow j : runnel.jobs().list(JobQuery.inStates(JobState.RUNNING).limit(RUNNING_SCAN))) {
            if (!j.attemptedBy().isEmpty()) {
                running.merge(j.attemptedBy().getLast(), 1L, Long::sum);
            }
        }
        return runnel.clients().stream()
                .sorted((a, b) -> b.startedAt().compareTo(a.startedAt()))
                .map(c -> new ClientView(c, c.aliveAt(now), leader.equals(Optional.of(c.id())), host(c),
                        running.getOrDefault(c.id(), 0L)))
                .toList();
    }

    List<PeriodicView> periodic() {
        Instant now = clock.instant();
        return runnel.periodic().list().stream().map(p -> new PeriodicView(p, Views.nextRun(p, now))).toList();
    }

    private static String host(ClientRow c) {
        Object meta = Json.raw(c.metadata());
        if (meta instanceof com.fasterxml.jackson.databind.JsonNode node && node.hasNonNull("host")) {
            return node.get("host").asText();
        }
        return "";
    }
}
