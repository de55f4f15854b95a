package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.internal.ClaimClock;
import dev.runnel.internal.Completer;
import dev.runnel.internal.DeadlineWatcher;
import dev.runnel.internal.Inserter;
import dev.runnel.internal.JobRunner;
import dev.runnel.internal.Kinds;
import dev.runnel.internal.Producer;
import dev.runnel.internal.Scheduler;
import dev.runnel.internal.WorkUnit;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(Runnel.class);

    private final Builder config;
    private final Driver driver;
    private final Inserter inserter;
    private final Map<String, Producer> producers = new LinkedHashMap<>();
    private final List<dev.runnel.internal.Service> services = new ArrayList<>();
    private Completer completer;
    private AutoCloseable insertSubscription;
    private State state = State.NEW;

    private enum State { NEW, STARTED, STOPPED, CLOSED }

    /**
     * How a queue's jobs are delivered to workers.
     *
     * <p>{@link #AT_LEAST_ONCE} (the default): a claimed job is running until its outcome is
     * written; if the process dies first, the job is to be rescued and run again (the rescuer is
     * not built yet: until then it stays running), so a worker must
     * tolerate a repeat. {@link #AT_MOST_ONCE}: the claim itself removes the job from the table,
     * so a success costs no write at all and leaves no row (listeners still hear of it); a job
     * running when the process dies is lost; a failure is written back as discarded and a cancel
     * as cancelled, with the error, never retried. For work where a repeat is worse than a loss
     * (a notification nobody wants twice) and for the cheapest possible throughput.
     */
    public enum Delivery { AT_LEAST_ONCE, AT_MOST_ONCE }

    private record QueueConfig(int maxWorkers, Delivery delivery) {}

    private Runnel(Builder b) {
        this.config = b;
        this.driver = b.driver;
        this.inserter = new Inserter(b.clock);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** This client's id, recorded in {@code attempted_by} of each job it works. */
    public String id() {
        return config.clientId;
    }

    /** The driver this client stores jobs with. */
    public Driver driver() {
        return driver;
    }

    /**
     * Checks the schema (or migrates it, with {@link Builder#autoMigrate}), then starts fetching and
     * working jobs on every queue. Throws {@link RunnelException} when the database is unusable.
     */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("a client starts once; this one is " + state.name().toLowerCase());
        }
        Migrator migrator = new Migrator(driver);
        if (config.autoMigrate) {
            migrator.up();
        }
        migrator.checkCurrent();
        state = State.STARTED;
        if (config.queues.isEmpty()) {
            return;
        }
        JobRunner runner = new JobRunner(config.units, config.clock, config.jobTimeout, config.retryPolicy);
        completer = new Completer(driver, config.listeners, new Completer.Config(config.completerBatchSize,
                config.completerFlushInterval, config.stopTimeout, config.clientId), config.clock, config.retryPolicy);
        completer.start();
        ClaimClock claimClock = new ClaimClock(config.clock);
        for (Map.Entry<String, QueueConfig> q : config.queues.entrySet()) {
            Producer producer = new Producer(new Producer.Config(q.getKey(), q.getValue().maxWorkers(),
                    config.fetchPollInterval, config.fetchCooldown, config.clientId,
                    q.getValue().delivery() == Delivery.AT_MOST_ONCE), driver, runner, completer, config.clock,
                    claimClock);
            producers.put(q.getKey(), producer);
        }
        services.add(new DeadlineWatcher(List.copyOf(producers.values())));
        services.add(new Scheduler(driver, config.clock, config.schedulerInterval, this::wakeAll));
        services.forEach(dev.runnel.internal.Service::start);
        producers.values().forEach(Producer::start);
        if (driver.supportsListenNotify()) {
            insertSubscription = driver.listenInserts(this::wake);
        }
    }

    /**
     * Stops gracefully: stops fetching, waits up to {@code timeout} for running jobs, then cancels
     * those still running (interrupt, and {@link Job#isCancelled()}), waits for them to return, and
     * writes every outcome before returning. Idempotent.
     */
    public synchronized void stop(Duration timeout) {
        if (state != State.STARTED) {
            return;
        }
        state = State.STOPPED;
        closeQuietly(insertSubscription);
        producers.values().forEach(Producer::stop);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!awaitIdle(deadline)) {
                producers.values().forEach(p -> p.cancelRunning("client stopping"));
                if (!awaitIdle(System.nanoTime() + config.stopTimeout.toNanos())) {
                    LOG.warn("jobs ignored cancellation for {}; they stay running until rescued", config.stopTimeout);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        services.forEach(dev.runnel.internal.Service::stop);
        if (completer != null) {
            completer.stop();
        }
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
        stop(config.stopTimeout);
        state = State.CLOSED;
        driver.close();
    }

    private boolean awaitIdle(long deadlineNanos) throws InterruptedException {
        boolean idle = true;
        for (Producer p : producers.values()) {
            idle &= p.awaitIdle(deadlineNanos);
        }
        return idle;
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
        if (requests.isEmpty()) {
            return new long[0];
        }
        List<JobInsertParams> rows = inserter.resolve(requests);
        long[] ids = driver.jobInsertMany(rows);
        wakeFor(rows);
        return ids;
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
        if (requests.isEmpty()) {
            return new long[0];
        }
        List<JobInsertParams> rows = inserter.resolve(requests);
        long[] ids = driver.jobInsertManyTx(transaction, rows);
        // Not yet committed: the wake-up may find nothing, and the next poll will find them.
        wakeFor(rows);
        return ids;
    }

    /** Wakes this client's producers of the queues that got available jobs, once per queue run. */
    private void wakeFor(List<JobInsertParams> rows) {
        if (producers.isEmpty()) {
            return;
        }
        String last = null;
        for (JobInsertParams row : rows) {
            String queue = row.queue();
            if (row.state() == JobState.AVAILABLE && !queue.equals(last)) {
                wake(queue);
                last = queue;
            }
        }
    }

    private void wake(String queue) {
        Producer p = producers.get(queue);
        if (p != null) {
            p.signalInsert();
        }
    }

    private void wakeAll() {
        producers.values().forEach(Producer::signalInsert);
    }

    // ---- reading ----

    /**
     * The job with this id, if it exists: a job that succeeded in an {@link Delivery#AT_MOST_ONCE}
     * queue does not (its claim removed it).
     */
    public Optional<JobRow> jobGet(long id) {
        return driver.jobGet(id);
    }

    /** A page of jobs, by ascending id. */
    public List<JobRow> jobList(JobQuery query) {
        return driver.jobList(query);
    }

    /** How many jobs each queue has in each state. */
    public List<JobCount> jobCounts() {
        return driver.jobCountByState();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("closing {} failed", c, e);
        }
    }

    /**
     * Configures a {@link Runnel} client. Each setter validates its value at once; {@link #build()}
     * checks the whole and freezes it.
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

        private Driver driver;
        private final Map<String, QueueConfig> queues = new LinkedHashMap<>();
        private final Map<String, WorkUnit<?>> units = new LinkedHashMap<>();
        private final List<JobListener> listeners = new ArrayList<>();
        private Clock clock = Clock.systemUTC();
        private Duration fetchPollInterval = DEFAULT_FETCH_POLL_INTERVAL;
        private Duration fetchCooldown = DEFAULT_FETCH_COOLDOWN;
        private Duration jobTimeout = DEFAULT_JOB_TIMEOUT;
        private Duration schedulerInterval = DEFAULT_SCHEDULER_INTERVAL;
        private Duration stopTimeout = DEFAULT_STOP_TIMEOUT;
        private int completerBatchSize = DEFAULT_COMPLETER_BATCH_SIZE;
        private Duration completerFlushInterval = DEFAULT_COMPLETER_FLUSH_INTERVAL;
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        private String clientId = defaultClientId();
        private boolean autoMigrate;
        private boolean built;

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
            if (queues.putIfAbsent(name, new QueueConfig(maxWorkers, delivery)) != null) {
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

        /** Receives an event for every outcome this client writes. */
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

        /** How often due scheduled and retryable jobs are made available. */
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

        /** This client's id in {@code attempted_by}; default host name, process id and a random suffix. */
        public Builder clientId(String id) {
            if (id == null || id.isBlank() || id.length() > 255) {
                throw new IllegalArgumentException("clientId must be 1 to 255 characters");
            }
            this.clientId = id;
            return this;
        }

        /** Whether {@link Runnel#start()} applies pending migrations itself. Default false. */
        public Builder autoMigrate(boolean autoMigrate) {
            this.autoMigrate = autoMigrate;
            return this;
        }

        public Runnel build() {
            if (built) {
                throw new IllegalStateException("a builder builds one client");
            }
            if (driver == null) {
                throw new IllegalArgumentException("driver is required");
            }
            if (!queues.isEmpty() && units.isEmpty()) {
                throw new IllegalArgumentException("queues are configured but no worker is registered");
            }
            built = true;
            return new Runnel(this);
        }

        private static <V> V require(String option, V value) {
            if (value == null) {
                throw new IllegalArgumentException(option + " must not be null");
            }
            return value;
        }

        private static Duration positive(String option, Duration d) {
            require(option, d);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(option + " must be positive, was " + d);
            }
            return d;
        }

        private static Duration notNegative(String option, Duration d) {
            require(option, d);
            if (d.isNegative()) {
                throw new IllegalArgumentException(option + " must not be negative, was " + d);
            }
            return d;
        }

        private static String defaultClientId() {
            String host = System.getenv().getOrDefault("HOSTNAME", "runnel");
            return host + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
        }
    }
}
