package dev.runnel;

import static dev.runnel.internal.Settings.between;
import static dev.runnel.internal.Settings.notNegative;
import static dev.runnel.internal.Settings.positive;
import static dev.runnel.internal.Settings.require;

import dev.runnel.driver.Driver;
import dev.runnel.internal.ClientConfig;
import dev.runnel.internal.ClientRuntime;
import dev.runnel.internal.Inserter;
import dev.runnel.internal.Kinds;
import dev.runnel.internal.Settings;
import dev.runnel.internal.WorkUnit;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Runnel client: inserts jobs and, once started, works the queues it was built with.
 *
 * <pre>{@code
 * try (Runnel runnel = Runnel.builder()
 *         .driver(SqliteDriver.open(Path.of("jobs.db")))
 *         .queue("default", 100)
 *         .worker(SendReceipt.class, new SendReceiptWorker())
 *         .build()) {
 *     runnel.start();
 *     runnel.insert(new SendReceipt(42, "a@example.com"));
 * }
 * }</pre>
 *
 * <p>The client owns its driver and closes it on {@link #close()}. Inserting needs no
 * {@link #start()}: a client without queues is an insert-only client.
 */
public final class Runnel implements AutoCloseable {
    private final ClientConfig config;
    private final Driver driver;
    private final Inserter inserter;
    private ClientRuntime runtime;
    private Thread shutdownHook;
    private State state = State.NEW;

    private enum State { NEW, STARTED, STOPPED, CLOSED }

    /**
     * How a queue's jobs are delivered to workers.
     *
     * <p>{@link #AT_LEAST_ONCE} (the default): a claimed job is running until its outcome is
     * written; if the process dies first, the rescuer gives the job back to be run again once the
     * client's heartbeat has expired, so a worker must tolerate a repeat. {@link #AT_MOST_ONCE}:
     * the claim itself removes the job from the table, so a success costs no write at all and
     * leaves no row (listeners still hear of it); a job running when the process dies is lost (the
     * rescuer has nothing to find); a failure is written back as discarded and a cancel as
     * cancelled, with the error, never retried. For work where a repeat is worse than a loss (a
     * notification nobody wants twice) and for the cheapest possible throughput.
     */
    public enum Delivery { AT_LEAST_ONCE, AT_MOST_ONCE }

    private Runnel(ClientConfig config, Driver driver) {
        this.config = config;
        this.driver = driver;
        this.inserter = new Inserter(config.clock(), driver, this::wake);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** This client's id, recorded in {@code attempted_by} of each job it works. */
    public String id() {
        return config.clientId();
    }

    /** The driver this client stores jobs with. */
    public Driver driver() {
        return driver;
    }

    /**
     * Checks the schema (or migrates it, with {@link Builder#autoMigrate}), registers this client
     * in the cluster, and starts its services: the heartbeat, leader election (and, while it leads,
     * the scheduler, rescuer and cleaner) and fetching and working jobs on every queue. Throws
     * {@link RunnelException} when the database is unusable.
     */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("a client starts once; this one is " + state.name().toLowerCase());
        }
        Migrator migrator = new Migrator(driver);
        if (config.autoMigrate()) {
            migrator.up();
        }
        migrator.checkCurrent();
        runtime = new ClientRuntime(config, driver);
        runtime.start();
        state = State.STARTED;
        if (config.stopOnShutdown()) {
            shutdownHook = new Thread(() -> stop(config.stopTimeout()), "runnel-shutdown-" + config.clientId());
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /**
     * Stops gracefully: stops fetching, waits up to {@code timeout} for running jobs, then cancels
     * those still running (interrupt, and {@link Job#isCancelled()}) and waits for them to return;
     * writes every outcome, gives up the leadership if it held it, and records the stop, so that any
     * job left running is rescued at once. Idempotent.
     */
    public synchronized void stop(Duration timeout) {
        if (state != State.STARTED) {
            return;
        }
        state = State.STOPPED;
        removeShutdownHook();
        runtime.stop(timeout);
    }

    /** Stops at once: cancels running jobs without waiting for them to finish on their own. */
    public void stopAndCancel() {
        stop(Duration.ZERO);
    }

    /** Stops with the builder's stop timeout and closes the driver. */
    @Override
    public synchronized void close() {
        if (state == State.CLOSED) {
            return;
        }
        stop(config.stopTimeout());
        state = State.CLOSED;
        driver.close();
    }

    private void removeShutdownHook() {
        if (shutdownHook == null || Thread.currentThread() == shutdownHook) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs, and finds the client stopped
        }
    }

    /** Whether this client holds the leadership now (and runs the cluster's maintenance). */
    public boolean isLeader() {
        return runtime != null && state == State.STARTED && runtime.isLeader();
    }

    // ---- inserting ----

    /** Inserts one job with its kind's default options; returns its id. */
    public long insert(JobArgs args) {
        return insert(args, InsertOptions.NONE);
    }

    /** Inserts one job; returns its id. */
    public long insert(JobArgs args, InsertOptions options) {
        return insertMany(List.of(new InsertRequest(args, options)))[0];
    }

    /**
     * Inserts many jobs in as few statements as the driver allows (one on Postgres), all or none;
     * returns their ids in order. Every request is validated before anything is written.
     */
    public long[] insertMany(List<InsertRequest> requests) {
        return inserter.insertMany(requests);
    }

    /**
     * Inserts one job on the caller's connection, inside the caller's transaction: it exists only if
     * the caller commits. Returns its id.
     */
    public long insert(Connection transaction, JobArgs args) {
        return insert(transaction, args, InsertOptions.NONE);
    }

    /** Inserts one job inside the caller's transaction, as {@link #insert(Connection, JobArgs)}. */
    public long insert(Connection transaction, JobArgs args, InsertOptions options) {
        return insertMany(transaction, List.of(new InsertRequest(args, options)))[0];
    }

    /** Inserts many jobs inside the caller's transaction; returns their ids in order. */
    public long[] insertMany(Connection transaction, List<InsertRequest> requests) {
        return inserter.insertMany(transaction, requests);
    }

    /** Wakes this client's producer of {@code queue}, if it is started and works it. */
    private void wake(String queue) {
        ClientRuntime r = runtime;
        if (r != null) {
            r.wake(queue);
        }
    }

    // ---- reading ----

    /**
     * The job with this id, if it exists: a job that succeeded in an {@link Delivery#AT_MOST_ONCE}
     * queue does not (its claim removed it), nor one the cleaner deleted after its retention.
     */
    public Optional<JobRow> jobGet(long id) {
        return driver.jobGet(id);
    }

    /** A page of the jobs {@code query} matches, in its order: as {@link Jobs#list}. */
    public List<JobRow> jobList(JobQuery query) {
        return driver.jobList(query);
    }

    /**
     * How many jobs each queue has in each state, every one counted: a scan of the whole table. A
     * dashboard's quick counts are {@link Jobs#counts()}.
     */
    public List<JobCount> jobCounts() {
        return driver.jobCountByState();
    }

    /** Every client registered in the cluster, running or gone but not yet removed, oldest first. */
    public List<ClientRow> clients() {
        return driver.clientList();
    }

    /** Jobs to cancel, retry or delete, one or by query. */
    public Jobs jobs() {
        return new Jobs(driver, config.clock(), () -> {
            ClientRuntime r = runtime;
            if (r != null) {
                r.checkCancels();
            }
        });
    }

    /** The cluster's queues: listed, paused, resumed. */
    public Queues queues() {
        return new Queues(driver, config.clock(), this::wake);
    }

    /** The leader's lease, if any client holds or held it. */
    public Optional<LeaderRow> leader() {
        return driver.leaderGet();
    }

    /**
     * Configures a {@link Runnel} client. Each setter validates its value at once; {@link #build()}
     * checks the whole and copies it into the client, so that changing the builder afterwards
     * changes nothing.
     */
    public static final class Builder {
        /** Default {@link #fetchPollInterval}: 1 s. */
        public static final Duration DEFAULT_FETCH_POLL_INTERVAL = Duration.ofSeconds(1);
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
         * Default {@link #completerFlushInterval}: 5 ms, the longest an outcome waits for company;
         * short enough that a lone job's completion is not noticeably delayed.
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

        private Driver driver;
        private final Map<String, ClientConfig.QueueConfig> queues = new LinkedHashMap<>();
        private final Map<String, WorkUnit<?>> units = new LinkedHashMap<>();
        private final List<JobListener> listeners = new ArrayList<>();
        private final Map<JobState, Duration> retention = new EnumMap<>(Map.of(
                JobState.COMPLETED, DEFAULT_COMPLETED_RETENTION,
                JobState.CANCELLED, DEFAULT_COMPLETED_RETENTION,
                JobState.DISCARDED, DEFAULT_DISCARDED_RETENTION));
        private Clock clock = Clock.systemUTC();
        private Duration fetchPollInterval = DEFAULT_FETCH_POLL_INTERVAL;
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

        private Builder() {}

        /** The driver jobs are stored with (required). The client closes it on {@link Runnel#close()}. */
        public Builder driver(Driver driver) {
            this.driver = require("driver", driver);
            return this;
        }

        /** Works queue {@code name} with at most {@code maxWorkers} jobs at once, at least once. */
        public Builder queue(String name, int maxWorkers) {
            return queue(name, maxWorkers, Delivery.AT_LEAST_ONCE);
        }

        /** Works queue {@code name} with at most {@code maxWorkers} jobs at once, with the given delivery. */
        public Builder queue(String name, int maxWorkers, Delivery delivery) {
            InsertOptions.validateQueue(name);
            if (maxWorkers < 1 || maxWorkers > MAX_WORKERS) {
                throw new IllegalArgumentException("maxWorkers of queue " + name + " must be between 1 and "
                        + MAX_WORKERS + ", was " + maxWorkers);
            }
            require("delivery", delivery);
            if (queues.putIfAbsent(name, new ClientConfig.QueueConfig(maxWorkers, delivery == Delivery.AT_MOST_ONCE))
                    != null) {
                throw new IllegalArgumentException("queue " + name + " is configured twice");
            }
            return this;
        }

        /** Registers a worker for an args type, whose kind is read from a sample instance. */
        public <T extends JobArgs> Builder worker(Class<T> type, Worker<T> worker) {
            return worker(Kinds.kindOf(require("type", type)), type, worker);
        }

        /** Registers a worker for jobs of {@code kind}, decoded as {@code type}. */
        public <T extends JobArgs> Builder worker(String kind, Class<T> type, Worker<T> worker) {
            InsertOptions.validateKind(kind);
            require("type", type);
            require("worker", worker);
            if (units.putIfAbsent(kind, new WorkUnit<>(kind, type, worker)) != null) {
                throw new IllegalArgumentException("a worker for kind " + kind + " is registered twice");
            }
            return this;
        }

        /** Receives an event for every outcome this client stores. */
        public Builder listener(JobListener listener) {
            listeners.add(require("listener", listener));
            return this;
        }

        /** The clock jobs are timestamped and scheduled by; tests inject one. Default: system UTC. */
        public Builder clock(Clock clock) {
            this.clock = require("clock", clock);
            return this;
        }

        /** How often each producer looks for jobs when nothing wakes it (jittered up to 10%). */
        public Builder fetchPollInterval(Duration interval) {
            this.fetchPollInterval = positive("fetchPollInterval", interval);
            return this;
        }

        /** The least time between two fetches triggered by inserts (jittered up to 10%). */
        public Builder fetchCooldown(Duration cooldown) {
            this.fetchCooldown = notNegative("fetchCooldown", cooldown);
            return this;
        }

        /** How long an attempt may run unless its worker says otherwise; {@link Duration#ZERO} for none. */
        public Builder jobTimeout(Duration timeout) {
            this.jobTimeout = notNegative("jobTimeout", timeout);
            return this;
        }

        /** How often due scheduled and retryable jobs are made available (by the leader). */
        public Builder schedulerInterval(Duration interval) {
            this.schedulerInterval = positive("schedulerInterval", interval);
            return this;
        }

        /** How long {@link #close()} waits for running jobs, and stop waits for cancelled ones. */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = notNegative("stopTimeout", timeout);
            return this;
        }

        /** The retry delays of failed jobs whose worker does not choose its own. */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = require("retryPolicy", policy);
            return this;
        }

        /** The most outcomes written per statement. */
        public Builder completerBatchSize(int size) {
            if (size < 1 || size > 100_000) {
                throw new IllegalArgumentException("completerBatchSize must be between 1 and 100000, was " + size);
            }
            this.completerBatchSize = size;
            return this;
        }

        /** The longest an outcome waits for its batch to fill before it is written. */
        public Builder completerFlushInterval(Duration interval) {
            this.completerFlushInterval = notNegative("completerFlushInterval", interval);
            return this;
        }

        /** How often this client tells the cluster it is alive: 100 ms to 1 minute, default 2 s. */
        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = between("heartbeatInterval", interval, Duration.ofMillis(100), Duration.ofMinutes(1));
            return this;
        }

        /**
         * How long a client may go without a heartbeat before it counts as dead and its running
         * jobs are rescued: at least twice the heartbeat interval (checked at {@link #build()}), at
         * most 1 hour, default 10 s.
         */
        public Builder heartbeatTimeout(Duration timeout) {
            this.heartbeatTimeout = between("heartbeatTimeout", timeout, Duration.ofMillis(200), Duration.ofHours(1));
            return this;
        }

        /**
         * How long a leader's lease lasts unless renewed (it is renewed every third of it): 1 s to
         * 10 minutes, default 10 s. After a leader dies another takes over within about 1.3 times it.
         */
        public Builder leaderLease(Duration lease) {
            this.leaderLease = between("leaderLease", lease, Duration.ofSeconds(1), Duration.ofMinutes(10));
            return this;
        }

        /**
         * The backstop for jobs of clients that are not registered at all (an older Runnel, a client
         * removed long ago): such a job is rescued once its attempt is this old. Never less than the
         * job timeout (checked at {@link #build()}); 1 s to 30 days, default 1 hour. Jobs of
         * registered clients are rescued by their heartbeat instead, and never while it beats.
         */
        public Builder rescueThreshold(Duration threshold) {
            this.rescueThreshold = between("rescueThreshold", threshold, Duration.ofSeconds(1), Duration.ofDays(30));
            return this;
        }

        /** How often the leader deletes jobs past their retention: 100 ms to 1 hour, default 30 s. */
        public Builder cleanerInterval(Duration interval) {
            this.cleanerInterval = between("cleanerInterval", interval, Duration.ofMillis(100), Duration.ofHours(1));
            return this;
        }

        /**
         * How long jobs that ended in {@code state} (completed, cancelled or discarded) are kept
         * before the cleaner deletes them; {@link Duration#ZERO} deletes them at the cleaner's next
         * round. Defaults: completed and cancelled 24 hours, discarded 7 days.
         */
        public Builder retention(JobState state, Duration keep) {
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
        public Builder retainForever(JobState state) {
            require("state", state);
            if (!state.isFinal()) {
                throw new IllegalArgumentException("retention applies to completed, cancelled and discarded jobs, not "
                        + state.dbName());
            }
            retention.remove(state);
            return this;
        }

        /** This client's id in {@code attempted_by}; default host name, process id and a random suffix. */
        public Builder clientId(String id) {
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
        public Builder autoMigrate(boolean autoMigrate) {
            this.autoMigrate = autoMigrate;
            return this;
        }

        /**
         * Whether a JVM shutdown (Ctrl-C, SIGTERM) stops the client gracefully, within the stop
         * timeout, so that running jobs finish or go back to be run again rather than wait for the
         * rescuer. Default false: an application usually stops its own components; the CLI and the
         * Spring Boot starter turn it on.
         */
        public Builder stopOnShutdown(boolean stopOnShutdown) {
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
            if (heartbeatTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException("heartbeatTimeout (" + heartbeatTimeout + ") must be at least twice"
                        + " heartbeatInterval (" + heartbeatInterval + ")");
            }
            if (!jobTimeout.isZero() && rescueThreshold.compareTo(jobTimeout) < 0) {
                throw new IllegalArgumentException("rescueThreshold (" + rescueThreshold + ") must not be less than"
                        + " jobTimeout (" + jobTimeout + "): a job would be rescued while it may still run");
            }
            ClientConfig config = new ClientConfig(clientId, clock, queues, units, listeners, retryPolicy,
                    fetchPollInterval, fetchCooldown, jobTimeout, schedulerInterval, stopTimeout, completerBatchSize,
                    completerFlushInterval, heartbeatInterval, heartbeatTimeout, leaderLease, rescueThreshold,
                    cleanerInterval, retention, autoMigrate, stopOnShutdown);
            if (autoMigrate) {
                new Migrator(driver).up();
            }
            return new Runnel(config, driver);
        }
    }
}
