package dev.runnel;

import static dev.runnel.internal.Settings.between;
import static dev.runnel.internal.Settings.notNegative;
import static dev.runnel.internal.Settings.positive;
import static dev.runnel.internal.Settings.require;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.driver.Driver;
import dev.runnel.internal.ArgsCodec;
import dev.runnel.internal.ClientConfig;
import dev.runnel.internal.ClientCore;
import dev.runnel.internal.Hooks;
import dev.runnel.internal.Kinds;
import dev.runnel.internal.Migrations;
import dev.runnel.internal.QueueSettings;
import dev.runnel.internal.Settings;
import dev.runnel.internal.WorkUnit;
import dev.runnel.json.RunnelJson;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Configures a {@link Runnel} client. Each setter validates its value at once; {@link #build()}
 * checks the whole and copies it into the client, so that changing the builder afterwards
 * changes nothing.
 */
public final class RunnelBuilder {
    /**
     * Default {@link #maxArgsBytes}: 1 MiB (1,048,576 bytes) of JSON. A job's args travel with
     * every claim and are read by every listing; large data belongs elsewhere, with a reference to
     * it in the args.
     */
    public static final int DEFAULT_MAX_ARGS_BYTES = ArgsCodec.DEFAULT_MAX_ARGS_BYTES;
    /** The largest {@link #maxArgsBytes}: 268,435,455 bytes, what a Postgres jsonb value holds. */
    public static final int MAX_ARGS_BYTES = ArgsCodec.MAX_ARGS_BYTES;
    /** Default {@link #fetchPollInterval}: 1 s. */
    public static final Duration DEFAULT_FETCH_POLL_INTERVAL = Duration.ofSeconds(1);
    /** Default {@link #fetchSafetyPollInterval}: 10 s. */
    public static final Duration DEFAULT_FETCH_SAFETY_POLL_INTERVAL = Duration.ofSeconds(10);
    /** Default {@link #fetchCooldown}: 100 ms. */
    public static final Duration DEFAULT_FETCH_COOLDOWN = Duration.ofMillis(100);
    /** Default {@link #jobTimeout}: 1 minute. */
    public static final Duration DEFAULT_JOB_TIMEOUT = Duration.ofMinutes(1);
    /** Default {@link #schedulerInterval}: 1 s. */
    public static final Duration DEFAULT_SCHEDULER_INTERVAL = Duration.ofSeconds(1);
    /** Default {@link #stopTimeout}: 10 s. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Default {@link #completerBatchSize}: 1,000 outcomes per statement. Bigger batches gain
     * little once the per-statement cost is amortised, and hold the SQLite writer longer.
     */
    public static final int DEFAULT_COMPLETER_BATCH_SIZE = 1_000;
    /**
     * Default {@link #completerFlushInterval}: 5 ms, the longest an outcome waits for company.
     * A lone job's outcome, one that comes after a flush interval with nothing written, does not
     * wait at all.
     */
    public static final Duration DEFAULT_COMPLETER_FLUSH_INTERVAL = Duration.ofMillis(5);
    /** The most concurrent jobs a queue may have: {@value}. */
    public static final int MAX_WORKERS = 100_000;
    /**
     * Default {@link #heartbeatInterval}: 2 s. One tiny upsert per client every 2 s costs
     * nothing next to the jobs, and keeps the rescue of a dead client's jobs within seconds.
     */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(2);
    /**
     * Default {@link #heartbeatTimeout}: 10 s, five missed heartbeats: a client silent that long
     * counts as dead and its jobs are rescued. Long enough for a full GC or a slow failover.
     */
    public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);
    /** Default {@link #leaderLease}: 10 s; a new leader takes over within about 13 s of the old one's death. */
    public static final Duration DEFAULT_LEADER_LEASE = Duration.ofSeconds(10);
    /** Default {@link #rescueThreshold}: 1 hour. */
    public static final Duration DEFAULT_RESCUE_THRESHOLD = Duration.ofHours(1);
    /** Default {@link #cleanerInterval}: 30 s. */
    public static final Duration DEFAULT_CLEANER_INTERVAL = Duration.ofSeconds(30);
    /** Default {@link #retention} of completed and of cancelled jobs: 24 hours. */
    public static final Duration DEFAULT_COMPLETED_RETENTION = Duration.ofHours(24);
    /** Default {@link #retention} of discarded jobs: 7 days, time enough to look into what failed. */
    public static final Duration DEFAULT_DISCARDED_RETENTION = Duration.ofDays(7);
    /**
     * Default {@link #jobCountInterval}: 30 s. Counting reads the whole jobs table (there is
     * deliberately no index on the state), so it runs on the leader alone, and no more often
     * than queue-depth gauges need.
     */
    public static final Duration DEFAULT_JOB_COUNT_INTERVAL = Duration.ofSeconds(30);

    private Driver driver;
    private final QueueSettings queues = new QueueSettings(MAX_WORKERS);
    private final Map<String, WorkUnit<?>> units = new LinkedHashMap<>();
    private final List<JobListener> listeners = new ArrayList<>();
    private final List<InsertMiddleware> insertMiddleware = new ArrayList<>();
    private final List<WorkMiddleware> workMiddleware = new ArrayList<>();
    private ErrorHandler errorHandler;
    private final List<RuntimeListener> runtimeListeners = new ArrayList<>();
    private Duration jobCountInterval = DEFAULT_JOB_COUNT_INTERVAL;
    /** Null for Runnel's default. */
    private ObjectMapper objectMapper;
    private int maxArgsBytes = DEFAULT_MAX_ARGS_BYTES;
    private final Map<String, PeriodicJob> periodicJobs = new LinkedHashMap<>();
    private final Map<JobState, Duration> retention = new EnumMap<>(Map.of(
            JobState.COMPLETED, DEFAULT_COMPLETED_RETENTION,
            JobState.CANCELLED, DEFAULT_COMPLETED_RETENTION,
            JobState.DISCARDED, DEFAULT_DISCARDED_RETENTION));
    private Clock clock = Clock.systemUTC();
    private Duration fetchPollInterval = DEFAULT_FETCH_POLL_INTERVAL;
    private Duration fetchSafetyPollInterval = DEFAULT_FETCH_SAFETY_POLL_INTERVAL;
    private Duration fetchCooldown = DEFAULT_FETCH_COOLDOWN;
    private Duration jobTimeout = DEFAULT_JOB_TIMEOUT;
    private Duration schedulerInterval = DEFAULT_SCHEDULER_INTERVAL;
    private Duration stopTimeout = DEFAULT_STOP_TIMEOUT;
    private int completerBatchSize = DEFAULT_COMPLETER_BATCH_SIZE;
    private Duration completerFlushInterval = DEFAULT_COMPLETER_FLUSH_INTERVAL;
    private Duration heartbeatInterval = DEFAULT_HEARTBEAT_INTERVAL;
    private Duration heartbeatTimeout = DEFAULT_HEARTBEAT_TIMEOUT;
    private Duration leaderLease = DEFAULT_LEADER_LEASE;
    private Duration rescueThreshold = DEFAULT_RESCUE_THRESHOLD;
    private Duration cleanerInterval = DEFAULT_CLEANER_INTERVAL;
    private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
    private String clientId = Settings.defaultClientId();
    private boolean autoMigrate;
    private boolean stopOnShutdown;
    private boolean embedded;

    RunnelBuilder() {}

    /** The driver jobs are stored with (required). The client closes it on {@link Runnel#close()}. */
    public RunnelBuilder driver(Driver driver) {
        this.driver = require("driver", driver);
        return this;
    }

    /** Works queue {@code name} with at most {@code maxWorkers} jobs at once, at least once. */
    public RunnelBuilder queue(String name, int maxWorkers) {
        return queue(name, maxWorkers, Runnel.Delivery.AT_LEAST_ONCE);
    }

    /** Works queue {@code name} with at most {@code maxWorkers} jobs at once, with the given delivery. */
    public RunnelBuilder queue(String name, int maxWorkers, Runnel.Delivery delivery) {
        return addQueue(name, maxWorkers, delivery, null);
    }

    /**
     * Works queue {@code name} with at most {@code maxWorkers} jobs at once, at least once, its jobs
     * run on {@code executor}: {@link QueueExecutor#platformThreads(int)} for CPU-bound jobs (at
     * most {@value QueueExecutor#MAX_PLATFORM_THREADS} workers), whatever {@link #embedded} says.
     */
    public RunnelBuilder queue(String name, int maxWorkers, QueueExecutor executor) {
        return queue(name, maxWorkers, Runnel.Delivery.AT_LEAST_ONCE, executor);
    }

    /** Works queue {@code name} with at most {@code maxWorkers} jobs at once, with the given delivery, on {@code executor}. */
    public RunnelBuilder queue(String name, int maxWorkers, Runnel.Delivery delivery, QueueExecutor executor) {
        return addQueue(name, maxWorkers, delivery, require("executor", executor));
    }

    private RunnelBuilder addQueue(String name, int maxWorkers, Runnel.Delivery delivery, QueueExecutor executor) {
        queues.add(name, maxWorkers, delivery, executor);
        return this;
    }

    /**
     * Whether this client runs inside an application that serves requests (a web application
     * working its own jobs). Embedded, every queue not given a {@link QueueExecutor} runs its jobs
     * on platform threads at nice {@value QueueExecutor#EMBEDDED_NICE} (Linux), so that CPU-bound
     * jobs take the CPU only when requests leave it, and their tail latency holds; such a queue may
     * have at most {@value QueueExecutor#MAX_PLATFORM_THREADS} workers. Default false: job threads
     * are virtual, at normal priority, as suits a process that only works jobs. A queue's own
     * executor always wins, so {@code embedded(false)} is the one switch that turns lowering off
     * for the rest.
     */
    public RunnelBuilder embedded(boolean embedded) {
        this.embedded = embedded;
        return this;
    }

    /**
     * At most {@code limit} jobs of queue {@code name}, configured on this builder and at least
     * once, running at once across all clients together; its {@code maxWorkers} still bounds
     * this client's share. Enforced in the claim, exactly. Stored with the queue when the client
     * starts (replacing what was there); {@link Queues#setGlobalLimit} changes it at runtime.
     */
    public RunnelBuilder globalLimit(String name, int limit) {
        queues.globalLimit(name, limit);
        return this;
    }

    /**
     * At most {@code jobs} jobs of queue {@code name}, configured on this builder and at least
     * once, started in any {@code period} across all clients together. Enforced in the claim,
     * exactly, over every window of that length. Stored with the queue when the client starts
     * (replacing what was there); {@link Queues#setRateLimit} changes it at runtime.
     */
    public RunnelBuilder rateLimit(String name, int jobs, Duration period) {
        queues.rateLimit(name, jobs, period);
        return this;
    }

    /**
     * At most {@code limit.limit()} jobs of queue {@code name}, configured on this builder and at
     * least once, running at once per key across all clients, the keys taking turns. Stored with
     * the queue when the client starts; {@link Queues#setKeyLimit} changes it at runtime.
     */
    public RunnelBuilder keyLimit(String name, KeyLimit limit) {
        queues.keyLimit(name, limit);
        return this;
    }

    /** Registers a worker for an args type, whose kind is read from a sample instance. */
    public <T extends JobArgs> RunnelBuilder worker(Class<T> type, Worker<T> worker) {
        return worker(Kinds.kindOf(require("type", type)), type, worker);
    }

    /** Registers a worker for jobs of {@code kind}, decoded as {@code type}. */
    public <T extends JobArgs> RunnelBuilder worker(String kind, Class<T> type, Worker<T> worker) {
        InsertOptions.validateKind(kind);
        require("type", type);
        require("worker", worker);
        if (units.putIfAbsent(kind, new WorkUnit<>(kind, type, worker)) != null) {
            throw new IllegalArgumentException("a worker for kind " + kind + " is registered twice");
        }
        return this;
    }

    /**
     * Declares a periodic job, stored in the cluster when this client starts (see
     * {@link Periodic} for how it meets an operator's changes). Every client may declare the
     * same jobs: each tick is enqueued once, by the leader.
     */
    public RunnelBuilder periodic(PeriodicJob job) {
        require("periodic job", job);
        if (periodicJobs.putIfAbsent(job.name(), job) != null) {
            throw new IllegalArgumentException("periodic job " + job.name() + " is declared twice");
        }
        return this;
    }

    /** Receives an event for every outcome this client stores. */
    public RunnelBuilder listener(JobListener listener) {
        listeners.add(require("listener", listener));
        return this;
    }

    /**
     * Hears of the runtime's own work: each claim, each write of outcomes and, while this client
     * leads, the job counts by queue and state (see {@link #jobCountInterval}). For metrics.
     */
    public RunnelBuilder runtimeListener(RuntimeListener listener) {
        runtimeListeners.add(require("runtimeListener", listener));
        return this;
    }

    /**
     * How often the leader counts the jobs by queue and state for the runtime listeners: 1 s to
     * 1 hour, default 30 s. Without a runtime listener nothing is counted.
     */
    public RunnelBuilder jobCountInterval(Duration interval) {
        this.jobCountInterval = between("jobCountInterval", interval, Duration.ofSeconds(1), Duration.ofHours(1));
        return this;
    }

    /**
     * The mapper that writes each job's args (and the metadata given at insert) and reads args
     * back for the worker: the application's own, such as Spring's, with its modules. The client
     * keeps a copy made at {@link #build()}. However the mapper is configured, properties the
     * args type does not know are ignored when reading, so that an older worker reads args a
     * newer version wrote. Default: {@link #defaultObjectMapper()}. Errors, output and Runnel's
     * other values are written with Runnel's own mapper.
     */
    public RunnelBuilder objectMapper(ObjectMapper mapper) {
        this.objectMapper = require("objectMapper", mapper);
        return this;
    }

    /**
     * The largest args this client inserts, in bytes of their JSON as UTF-8, the same on every
     * driver: a larger job is refused at insert ({@link IllegalArgumentException} naming its kind,
     * its size and this limit), before anything of its call is written, whether inserted alone,
     * in a batch, in a transaction, or declared as a periodic job. Between 2 (the JSON {@code {}})
     * and {@value #MAX_ARGS_BYTES}; default {@value #DEFAULT_MAX_ARGS_BYTES}.
     */
    public RunnelBuilder maxArgsBytes(int maxArgsBytes) {
        if (maxArgsBytes < 2 || maxArgsBytes > MAX_ARGS_BYTES) {
            throw new IllegalArgumentException("maxArgsBytes must be between 2 and " + MAX_ARGS_BYTES + ", was "
                    + maxArgsBytes);
        }
        this.maxArgsBytes = maxArgsBytes;
        return this;
    }

    /**
     * A new mapper configured as Runnel's default, to start from: Java time types
     * ({@code Instant}, {@code LocalDate}, {@code Duration}...) written as ISO-8601 strings, an
     * offset kept as written, unknown properties ignored. Each call makes a new one.
     */
    public static ObjectMapper defaultObjectMapper() {
        return RunnelJson.newMapper();
    }

    /** Runs around every insert call; several run in the order added, the first outermost. */
    public RunnelBuilder insertMiddleware(InsertMiddleware middleware) {
        insertMiddleware.add(require("insertMiddleware", middleware));
        return this;
    }

    /** Runs around every call of a worker; several run in the order added, the first outermost. */
    public RunnelBuilder workMiddleware(WorkMiddleware middleware) {
        workMiddleware.add(require("workMiddleware", middleware));
        return this;
    }

    /** Sees every failed attempt and decides what becomes of its job; replaces any set before. */
    public RunnelBuilder errorHandler(ErrorHandler handler) {
        this.errorHandler = require("errorHandler", handler);
        return this;
    }

    /** The clock jobs are timestamped and scheduled by; tests inject one. Default: system UTC. */
    public RunnelBuilder clock(Clock clock) {
        this.clock = require("clock", clock);
        return this;
    }

    /** How often each producer looks for jobs when nothing wakes it (jittered up to 10%). Default 1 s. */
    public RunnelBuilder fetchPollInterval(Duration interval) {
        this.fetchPollInterval = positive("fetchPollInterval", interval);
        return this;
    }

    /**
     * How often the client looks at which of its queues have jobs due, and only those claim, while
     * Postgres's LISTEN is up: a safety net for rows written by hand. Without LISTEN each queue polls
     * at {@link #fetchPollInterval}; SQLite and Redis ignore this. 1 ms to 1 day; default 10 s (plus
     * up to 10% jitter); {@link #fetchPollInterval}'s value turns it off.
     */
    public RunnelBuilder fetchSafetyPollInterval(Duration interval) {
        this.fetchSafetyPollInterval = between("fetchSafetyPollInterval", interval, Duration.ofMillis(1),
                Duration.ofDays(1));
        return this;
    }

    /**
     * The least time between fetches for inserts' signals once two such fetches in a row found
     * nothing (jittered up to 10%): it keeps the clients that keep losing the race for inserts
     * from all fetching again at once. Otherwise a signal waits at most 5 ms after the last fetch,
     * so that jobs inserted one at a time start within milliseconds.
     */
    public RunnelBuilder fetchCooldown(Duration cooldown) {
        this.fetchCooldown = notNegative("fetchCooldown", cooldown);
        return this;
    }

    /** How long an attempt may run unless its worker says otherwise; {@link Duration#ZERO} for none. */
    public RunnelBuilder jobTimeout(Duration timeout) {
        this.jobTimeout = notNegative("jobTimeout", timeout);
        return this;
    }

    /**
     * How often the leader makes due scheduled and retryable jobs available, and enqueues
     * periodic jobs' due ticks (so a tick is enqueued within this of its time).
     */
    public RunnelBuilder schedulerInterval(Duration interval) {
        this.schedulerInterval = positive("schedulerInterval", interval);
        return this;
    }

    /** How long {@link Runnel#close()} waits for running jobs, and stop waits for cancelled ones. */
    public RunnelBuilder stopTimeout(Duration timeout) {
        this.stopTimeout = notNegative("stopTimeout", timeout);
        return this;
    }

    /** The retry delays of failed jobs whose worker does not choose its own. */
    public RunnelBuilder retryPolicy(RetryPolicy policy) {
        this.retryPolicy = require("retryPolicy", policy);
        return this;
    }

    /** The most outcomes written per statement. */
    public RunnelBuilder completerBatchSize(int size) {
        if (size < 1 || size > 100_000) {
            throw new IllegalArgumentException("completerBatchSize must be between 1 and 100000, was " + size);
        }
        this.completerBatchSize = size;
        return this;
    }

    /**
     * The longest an outcome waits for its batch to fill before it is written. An outcome that
     * comes when nothing was written for this long is written at once: outcomes that come further
     * apart than this gather no batch, so they do not wait for one.
     */
    public RunnelBuilder completerFlushInterval(Duration interval) {
        this.completerFlushInterval = notNegative("completerFlushInterval", interval);
        return this;
    }

    /** How often this client tells the cluster it is alive: 100 ms to 1 minute, default 2 s. */
    public RunnelBuilder heartbeatInterval(Duration interval) {
        this.heartbeatInterval = between("heartbeatInterval", interval, Duration.ofMillis(100), Duration.ofMinutes(1));
        return this;
    }

    /**
     * How long a client may go without a heartbeat before it counts as dead and its running
     * jobs are rescued: at least twice the heartbeat interval (checked at {@link #build()}), at
     * most 1 hour, default 10 s.
     */
    public RunnelBuilder heartbeatTimeout(Duration timeout) {
        this.heartbeatTimeout = between("heartbeatTimeout", timeout, Duration.ofMillis(200), Duration.ofHours(1));
        return this;
    }

    /**
     * How long a leader's lease lasts unless renewed (it is renewed every third of it): 1 s to
     * 10 minutes, default 10 s. After a leader dies another takes over within about 1.3 times it.
     */
    public RunnelBuilder leaderLease(Duration lease) {
        this.leaderLease = between("leaderLease", lease, Duration.ofSeconds(1), Duration.ofMinutes(10));
        return this;
    }

    /**
     * The backstop for jobs of clients that are not registered at all (an older Runnel, a client
     * removed long ago): such a job is rescued once its attempt is this old. Never less than the
     * job timeout (checked at {@link #build()}); 1 s to 30 days, default 1 hour. Jobs of
     * registered clients are rescued by their heartbeat instead, and never while it beats.
     */
    public RunnelBuilder rescueThreshold(Duration threshold) {
        this.rescueThreshold = between("rescueThreshold", threshold, Duration.ofSeconds(1), Duration.ofDays(30));
        return this;
    }

    /** How often the leader deletes jobs past their retention: 100 ms to 1 hour, default 30 s. */
    public RunnelBuilder cleanerInterval(Duration interval) {
        this.cleanerInterval = between("cleanerInterval", interval, Duration.ofMillis(100), Duration.ofHours(1));
        return this;
    }

    /**
     * How long jobs that ended in {@code state} (completed, cancelled or discarded) are kept
     * before the cleaner deletes them; {@link Duration#ZERO} deletes them at the cleaner's next
     * round. Defaults: completed and cancelled 24 hours, discarded 7 days.
     *
     * <p>With completed jobs kept for {@link Duration#ZERO}, this client's completions delete their
     * jobs as they are written, rather than recording them completed for the cleaner: each job then
     * costs the database one row version fewer. A completion that recorded output, or that other
     * jobs wait on (a workflow's, a batch's or a sequence's), is still recorded, and deleted by the
     * cleaner. Listeners hear of every completion either way, and a unique key is free again once
     * its job is deleted.
     */
    public RunnelBuilder retention(JobState state, Duration keep) {
        require("state", state);
        if (!state.isFinal()) {
            throw new IllegalArgumentException("retention applies to completed, cancelled and discarded jobs, not "
                    + state.dbName());
        }
        retention.put(state, between("retention of " + state.dbName() + " jobs", keep, Duration.ZERO,
                Duration.ofDays(36_500)));
        return this;
    }

    /** Keeps jobs that ended in {@code state} forever: the cleaner leaves them alone. */
    public RunnelBuilder retainForever(JobState state) {
        require("state", state);
        if (!state.isFinal()) {
            throw new IllegalArgumentException("retention applies to completed, cancelled and discarded jobs, not "
                    + state.dbName());
        }
        retention.remove(state);
        return this;
    }

    /** This client's id in {@code attempted_by}; default host name, process id and a random suffix. */
    public RunnelBuilder clientId(String id) {
        if (id == null || id.isBlank() || id.length() > 255 || id.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("clientId must be 1 to 255 characters without control characters");
        }
        this.clientId = id;
        return this;
    }

    /**
     * Whether the schema is migrated to this Runnel's version by {@link #build()} (so that
     * inserts work before {@link Runnel#start()}) and checked again at start. Default false:
     * run {@code runnel migrate up}, or {@link Migrator#up()}, as part of a deployment.
     */
    public RunnelBuilder autoMigrate(boolean autoMigrate) {
        this.autoMigrate = autoMigrate;
        return this;
    }

    /**
     * Whether a JVM shutdown (Ctrl-C, SIGTERM) stops the client gracefully, within the stop
     * timeout, so that running jobs finish or go back to be run again rather than wait for the
     * rescuer. Default false: an application usually stops its own components; the CLI turns it on
     * (the Spring Boot starter stops the client with the application context instead).
     */
    public RunnelBuilder stopOnShutdown(boolean stopOnShutdown) {
        this.stopOnShutdown = stopOnShutdown;
        return this;
    }

    /**
     * Checks the whole configuration and builds the client, copying every setting. With
     * {@link #autoMigrate}, migrates the schema now.
     */
    public Runnel build() {
        if (driver == null) {
            throw new IllegalArgumentException("driver is required");
        }
        if (!queues.isEmpty() && units.isEmpty()) {
            throw new IllegalArgumentException("queues are configured but no worker is registered");
        }
        if (queues.isEmpty() && !units.isEmpty()) {
            throw new IllegalArgumentException("workers are registered but no queue is configured, so no job would"
                    + " ever be worked: add queue(\"" + InsertOptions.DEFAULT_QUEUE + "\", n) for the default"
                    + " queue (or build without workers for a client that only inserts)");
        }
        queues.checkKeyFields(units.values());
        if (heartbeatTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("heartbeatTimeout (" + heartbeatTimeout + ") must be at least twice"
                    + " heartbeatInterval (" + heartbeatInterval + ")");
        }
        if (!jobTimeout.isZero() && rescueThreshold.compareTo(jobTimeout) < 0) {
            throw new IllegalArgumentException("rescueThreshold (" + rescueThreshold + ") must not be less than"
                    + " jobTimeout (" + jobTimeout + "): a job would be rescued while it may still run");
        }
        ArgsCodec codec = (objectMapper == null ? ArgsCodec.DEFAULT : ArgsCodec.of(objectMapper))
                .withMaxArgsBytes(maxArgsBytes);
        ClientConfig config = new ClientConfig(clientId, clock, queues.settled(embedded), units, listeners,
                new Hooks(insertMiddleware, workMiddleware, errorHandler), codec, runtimeListeners, jobCountInterval,
                periodicJobs.values().stream().map(job -> PeriodicEncoding.encoded(job, codec)).toList(),
                retryPolicy, fetchPollInterval, fetchSafetyPollInterval, fetchCooldown, jobTimeout, schedulerInterval,
                stopTimeout, completerBatchSize, completerFlushInterval, heartbeatInterval, heartbeatTimeout,
                leaderLease, rescueThreshold, cleanerInterval, retention, autoMigrate, stopOnShutdown);
        if (autoMigrate) {
            new Migrations(driver).up();
        }
        return new Runnel(config, new ClientCore(config, driver));
    }
}
