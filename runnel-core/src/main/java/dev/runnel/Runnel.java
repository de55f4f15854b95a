package dev.runnel;

import dev.runnel.internal.ClientConfig;
import dev.runnel.internal.ClientCore;
import dev.runnel.internal.Inserter;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
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
 * <p>The client owns its driver and closes it on {@link #close()}, and hands it to no one: what
 * it does with it is here and in the services it hands out ({@link #jobs()}, {@link #queues()},
 * {@link #periodic()}, {@link #audit()}); code that works on the driver itself, such as a test
 * of a driver, keeps the one it gave the builder. Inserting needs no {@link #start()}: a client
 * without queues is an insert-only client.
 */
public final class Runnel implements AutoCloseable {
    private final ClientConfig config;
    private final ClientCore core;
    private final Inserter inserter;
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

    Runnel(ClientConfig config, ClientCore core) {
        this.config = config;
        this.core = core;
        this.inserter = core.inserter();
    }

    public static RunnelBuilder builder() {
        return new RunnelBuilder();
    }

    /** This client's id, recorded in {@code attempted_by} of each job it works. */
    public String id() {
        return config.clientId();
    }

    /**
     * The name of the driver this client stores jobs with, as logs and errors give it:
     * {@code postgres} or {@code sqlite}.
     */
    public String driverName() {
        return core.driverName();
    }

    /**
     * Checks the schema (or migrates it, with {@link RunnelBuilder#autoMigrate}), registers this client
     * in the cluster, and starts its services: the heartbeat, leader election (and, while it leads,
     * the scheduler, rescuer, cleaner and periodic jobs) and fetching and working jobs on every
     * queue; stores the periodic jobs declared on the builder. Throws
     * {@link RunnelException} when the database is unusable.
     */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("a client starts once; this one is " + state.name().toLowerCase());
        }
        core.start();
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
        core.stop(timeout);
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
        core.closeDriver();
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
        return state == State.STARTED && core.isLeader();
    }

    // ---- inserting ----

    /**
     * Inserts one job with its kind's default options. Returns its id, or, when it is unique and
     * a job with its key exists ({@link UniqueOptions}), that job's id, marked as a duplicate.
     */
    public InsertResult insert(JobArgs args) {
        return insert(args, InsertOptions.NONE);
    }

    /** Inserts one job, as {@link #insert(JobArgs)}. */
    public InsertResult insert(JobArgs args, InsertOptions options) {
        return insertMany(List.of(new InsertRequest(args, options))).getFirst();
    }

    /**
     * Inserts many jobs in as few statements as the driver allows (one on Postgres), all or none;
     * returns their results in order. Every request is validated before anything is written. A
     * unique job whose key is taken, by a job in the table or earlier in the batch, is a
     * duplicate: it is not written, and the rest of the batch is.
     */
    public List<InsertResult> insertMany(List<InsertRequest> requests) {
        return inserter.insertMany(requests);
    }

    /**
     * Inserts one job on the caller's connection, inside the caller's transaction: it exists only if
     * the caller commits. Returns its result, as {@link #insert(JobArgs)}.
     */
    public InsertResult insert(Connection transaction, JobArgs args) {
        return insert(transaction, args, InsertOptions.NONE);
    }

    /** Inserts one job inside the caller's transaction, as {@link #insert(Connection, JobArgs)}. */
    public InsertResult insert(Connection transaction, JobArgs args, InsertOptions options) {
        return insertMany(transaction, List.of(new InsertRequest(args, options))).getFirst();
    }

    /**
     * Inserts many jobs inside the caller's transaction; returns their results in order. On
     * Postgres a unique job that meets an existing one locks that job's row until the caller's
     * transaction ends, so keep such transactions short.
     */
    public List<InsertResult> insertMany(Connection transaction, List<InsertRequest> requests) {
        return inserter.insertMany(transaction, requests);
    }

    // ---- reading ----

    /**
     * The job with this id, if it exists: a job that succeeded in an {@link Delivery#AT_MOST_ONCE}
     * queue does not (its claim removed it), nor one the cleaner deleted after its retention.
     */
    public Optional<JobRow> jobGet(long id) {
        return core.jobGet(id);
    }

    /** A page of the jobs {@code query} matches, in its order: as {@link Jobs#list}. */
    public List<JobRow> jobList(JobQuery query) {
        return core.jobList(query);
    }

    /**
     * How many jobs each queue has in each state, every one counted: a scan of the whole table. A
     * dashboard's quick counts are {@link Jobs#counts()}.
     */
    public List<JobCount> jobCounts() {
        return core.jobCounts();
    }

    /** Every client registered in the cluster, running or gone but not yet removed, oldest first. */
    public List<ClientRow> clients() {
        return core.clients();
    }

    /** Jobs to cancel, retry or delete, one or by query. */
    public Jobs jobs() {
        return new Jobs(core.jobs());
    }

    /** The cluster's queues: listed, paused, resumed. */
    public Queues queues() {
        return new Queues(core.queues());
    }

    /** The cluster's periodic jobs: listed, added, changed, removed, paused, resumed. */
    public Periodic periodic() {
        return new Periodic(core.periodic(), config.codec());
    }

    /** The cluster's workflows: inserted, grown, read, cancelled, retried. */
    public Workflows workflows() {
        return new Workflows(core.links());
    }

    /** The cluster's batches: inserted, added to, read. */
    public Batches batches() {
        return new Batches(core.links());
    }

    /** The leader's lease, if any client holds or held it. */
    public Optional<LeaderRow> leader() {
        return core.leader();
    }

    /**
     * The cluster's audit log: the changes operators made, through the dashboard or the
     * application's own tools.
     */
    public Audit audit() {
        return new Audit(core.audit());
    }

}
