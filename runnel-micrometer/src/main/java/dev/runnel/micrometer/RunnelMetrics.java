package dev.runnel.micrometer;

import dev.runnel.JobCount;
import dev.runnel.JobEvent;
import dev.runnel.JobListener;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RuntimeListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Micrometer meters for Runnel clients: outcomes by queue, kind and state, run and wait times,
 * queue depth by state, and the sizes and latencies of claims and of outcome writes. Register it
 * on a client both as a {@link JobListener} and as a {@link RuntimeListener}:
 *
 * <pre>{@code
 * RunnelMetrics metrics = new RunnelMetrics(meterRegistry);
 * Runnel.builder()
 *         .driver(driver)
 *         .listener(metrics)
 *         .runtimeListener(metrics)
 *         ...
 * }</pre>
 *
 * <p>The meters (names as Micrometer writes them, dot-separated; a Prometheus registry shows
 * {@code runnel.job.run} as {@code runnel_job_run_seconds}):
 * <ul>
 *   <li>{@value #OUTCOMES} (counter; queue, kind, outcome, state): each attempt's outcome, once
 *       it is stored; outcome is completed, failed (to be retried), snoozed, cancelled or
 *       discarded, state the state the job moved to.
 *   <li>{@value #RUN} (timer; queue, kind, outcome): how long the worker ran.
 *   <li>{@value #WAIT} (timer; queue, kind): from when the job was due (its scheduled time) to
 *       when it was claimed.
 *   <li>{@value #JOBS} (gauge; queue, state): how many jobs each queue has in each state, across
 *       the cluster. Counted by the leader alone, every {@code jobCountInterval} (30 s by
 *       default), so the cost does not grow with clients or scrapes; only the leading client's
 *       registry has these gauges, and they leave it when it stops leading.
 *   <li>{@value #CLAIM} (timer; queue) and {@value #CLAIM_SIZE} (summary, jobs; queue): each
 *       claim's statement and how many jobs it got.
 *   <li>{@value #WRITE} (timer) and {@value #WRITE_SIZE} (summary, jobs): each write of
 *       outcomes and how many it wrote.
 * </ul>
 *
 * <p>Thread-safe; one instance may serve several clients of a process (give each its own for
 * the per-client tags a registry cannot tell apart otherwise). Meters are made on first use and
 * kept: the queue and kind tags are as many as the application has queues and kinds.
 */
public final class RunnelMetrics implements JobListener, RuntimeListener {
    /** Counter of stored outcomes: {@value}. */
    public static final String OUTCOMES = "runnel.job.outcomes";
    /** Timer of how long workers ran: {@value}. */
    public static final String RUN = "runnel.job.run";
    /** Timer of how long jobs waited from due to claimed: {@value}. */
    public static final String WAIT = "runnel.job.wait";
    /** Gauge of jobs by queue and state, on the leader: {@value}. */
    public static final String JOBS = "runnel.jobs";
    /** Timer of claim statements: {@value}. */
    public static final String CLAIM = "runnel.claim";
    /** Summary of jobs per claim: {@value}. */
    public static final String CLAIM_SIZE = "runnel.claim.size";
    /** Timer of outcome writes: {@value}. */
    public static final String WRITE = "runnel.completer.write";
    /** Summary of outcomes per write: {@value}. */
    public static final String WRITE_SIZE = "runnel.completer.write.size";

    private static final JobEvent.Type[] TYPES = JobEvent.Type.values();
    private static final JobState[] STATES = JobState.values();

    private final MeterRegistry registry;
    private final Tags common;
    /** By queue, then kind: two lookups and no allocation per event on the completer's thread. */
    private final Map<String, Map<String, KindMeters>> kinds = new ConcurrentHashMap<>();
    private final Map<String, ClaimMeters> claims = new ConcurrentHashMap<>();
    private final Timer write;
    private final DistributionSummary writeSize;
    /** The depth gauges by queue, while a client this serves leads; guarded by itself. */
    private final Map<String, Depth> depths = new HashMap<>();

    /** Meters on {@code registry}, tagged as the registry's common tags say. */
    public RunnelMetrics(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /** Meters on {@code registry}, each with {@code tags} besides its own (a client's name, say). */
    public RunnelMetrics(MeterRegistry registry, Iterable<Tag> tags) {
        if (registry == null || tags == null) {
            throw new IllegalArgumentException("registry and tags must not be null");
        }
        this.registry = registry;
        this.common = Tags.of(tags);
        this.write = Timer.builder(WRITE).description("Writes of job outcomes, one statement each")
                .tags(common).register(registry);
        this.writeSize = DistributionSummary.builder(WRITE_SIZE).description("Job outcomes per write")
                .baseUnit("jobs").tags(common).register(registry);
    }

    // ---- outcomes, from the completer once each is stored ----

    @Override
    public void onEvent(JobEvent event) {
        JobRow job = event.job();
        KindMeters meters = kindMeters(job.queue(), job.kind());
        meters.outcome(event.type(), event.newState()).increment();
        meters.run(event.type()).record(event.runTime());
        Instant claimedAt = job.attemptedAt().orElse(null);
        if (claimedAt != null) {
            Duration waited = Duration.between(job.scheduledAt(), claimedAt);
            meters.waited.record(waited.isNegative() ? Duration.ZERO : waited);
        }
    }

    private KindMeters kindMeters(String queue, String kind) {
        Map<String, KindMeters> ofQueue = kinds.get(queue);
        if (ofQueue == null) {
            ofQueue = kinds.computeIfAbsent(queue, q -> new ConcurrentHashMap<>());
        }
        KindMeters meters = ofQueue.get(kind);
        if (meters == null) {
            meters = ofQueue.computeIfAbsent(kind, k -> new KindMeters(queue, k));
        }
        return meters;
    }

    /** The meters of one queue and kind; those of each outcome made when it first happens. */
    private final class KindMeters {
        private final Tags tags;
        private final Timer waited;
        private final Counter[][] outcomes = new Counter[TYPES.length][STATES.length];
        private final Timer[] runs = new Timer[TYPES.length];

        KindMeters(String queue, String kind) {
            this.tags = common.and("queue", queue, "kind", kind);
            this.waited = Timer.builder(WAIT).description("Time from a job's scheduled time to its claim")
                    .tags(tags).register(registry);
        }

        Counter outcome(JobEvent.Type type, JobState state) {
            Counter c = outcomes[type.ordinal()][state.ordinal()];
            if (c == null) {
                // Two threads may both look it up: the registry hands both the same counter.
                c = Counter.builder(OUTCOMES).description("Job attempts by their stored outcome")
                        .tags(tags).tag("outcome", name(type)).tag("state", state.dbName()).register(registry);
                outcomes[type.ordinal()][state.ordinal()] = c;
            }
            return c;
        }

        Timer run(JobEvent.Type type) {
            Timer t = runs[type.ordinal()];
            if (t == null) {
                t = Timer.builder(RUN).description("How long workers ran").tags(tags).tag("outcome", name(type))
                        .register(registry);
                runs[type.ordinal()] = t;
            }
            return t;
        }
    }

    private static String name(JobEvent.Type type) {
        return type.name().toLowerCase(Locale.ROOT);
    }

    // ---- the runtime's own work ----

    @Override
    public void claimed(String queue, int requested, int claimed, Duration took) {
        ClaimMeters meters = claims.get(queue);
        if (meters == null) {
            meters = claims.computeIfAbsent(queue, ClaimMeters::new);
        }
        meters.timer.record(took);
        meters.size.record(claimed);
    }

    private final class ClaimMeters {
        private final Timer timer;
        private final DistributionSummary size;

        ClaimMeters(String queue) {
            Tags tags = common.and("queue", queue);
            this.timer = Timer.builder(CLAIM).description("Claims of jobs, one statement each").tags(tags)
                    .register(registry);
            this.size = DistributionSummary.builder(CLAIM_SIZE).description("Jobs per claim").baseUnit("jobs")
                    .tags(tags).register(registry);
        }
    }

    @Override
    public void outcomesWritten(int count, Duration took) {
        write.record(took);
        writeSize.record(count);
    }

    // ---- queue depth, from the leader ----

    @Override
    public void jobCounts(List<JobCount> counts) {
        Map<String, long[]> byQueue = new HashMap<>();
        for (JobCount c : counts) {
            byQueue.computeIfAbsent(c.queue(), q -> new long[STATES.length])[c.state().ordinal()] += c.count();
        }
        synchronized (depths) {
            Set<String> queues = new HashSet<>(depths.keySet());
            queues.addAll(byQueue.keySet());
            for (String queue : queues) {
                // A queue whose jobs are all gone is counted nowhere: its gauges go to zero.
                long[] values = byQueue.getOrDefault(queue, new long[STATES.length]);
                depths.computeIfAbsent(queue, Depth::new).set(values);
            }
        }
    }

    @Override
    public void jobCountsStopped() {
        synchronized (depths) {
            depths.values().forEach(Depth::remove);
            depths.clear();
        }
    }

    /** One queue's gauges, a state each, so that every state has a series (zero when empty). */
    private final class Depth {
        private final AtomicLong[] values = new AtomicLong[STATES.length];
        private final List<Gauge> gauges = new ArrayList<>(STATES.length);

        Depth(String queue) {
            for (JobState state : STATES) {
                AtomicLong value = new AtomicLong();
                values[state.ordinal()] = value;
                // No base unit: Prometheus would append it, runnel_jobs_jobs.
                gauges.add(Gauge.builder(JOBS, value, AtomicLong::get).description("Jobs by queue and state")
                        .tags(common).tag("queue", queue).tag("state", state.dbName())
                        .strongReference(true).register(registry));
            }
        }

        void set(long[] counts) {
            for (int i = 0; i < counts.length; i++) {
                values[i].set(counts[i]);
            }
        }

        void remove() {
            gauges.forEach(registry::remove);
        }
    }
}
