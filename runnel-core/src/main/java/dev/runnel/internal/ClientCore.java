package dev.runnel.internal;

import dev.runnel.ClientRow;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.driver.Driver;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a {@link dev.runnel.Runnel} client does with its driver: inserts, reads, the services it
 * hands out ({@link JobAdmin}, {@link QueueAdmin}, {@link PeriodicAdmin}, {@link AuditLog}), the
 * schema check and runtime at start, and the driver's close. The client keeps its lifecycle (once
 * started, stopped, closed) and its shutdown hook; this keeps the driver out of the API.
 */
public final class ClientCore {
    private final ClientConfig config;
    private final Driver driver;
    private final Inserter inserter;
    /** Set once by {@link #start()}, under the client's lock; read without it by wake-ups from inserting threads. */
    private ClientRuntime runtime;

    public ClientCore(ClientConfig config, Driver driver) {
        this.config = config;
        this.driver = driver;
        this.inserter = new Inserter(config.clock(), driver, this::wake, config.hooks().insert(), config.codec(),
                queue -> {
                    ClientConfig.QueueConfig q = config.queues().get(queue);
                    return q != null && q.atMostOnce();
                });
    }

    public Inserter inserter() {
        return inserter;
    }

    /** The driver's name, such as {@code sqlite} or {@code postgres}. */
    public String driverName() {
        return driver.name();
    }

    /**
     * Checks the schema (migrating it first with {@code autoMigrate}), then starts the runtime:
     * registration, heartbeat, election, maintenance and every queue's producer.
     */
    public void start() {
        Migrations migrations = new Migrations(driver);
        if (config.autoMigrate()) {
            migrations.up();
        }
        migrations.checkCurrent();
        runtime = new ClientRuntime(config, driver);
        runtime.start();
    }

    public void stop(Duration timeout) {
        runtime.stop(timeout);
    }

    public void closeDriver() {
        driver.close();
    }

    public boolean isLeader() {
        ClientRuntime r = runtime;
        return r != null && r.isLeader();
    }

    /** Wakes this client's producer of {@code queue}, if it is started and works it. */
    private void wake(String queue) {
        ClientRuntime r = runtime;
        if (r != null) {
            r.wake(queue);
        }
    }

    private void checkCancels() {
        ClientRuntime r = runtime;
        if (r != null) {
            r.checkCancels();
        }
    }

    public Optional<JobRow> jobGet(long id) {
        return driver.jobGet(id);
    }

    public List<JobRow> jobList(JobQuery query) {
        return driver.jobList(query);
    }

    public List<JobCount> jobCounts() {
        return driver.jobCountByState();
    }

    public List<ClientRow> clients() {
        return driver.clientList();
    }

    public Optional<LeaderRow> leader() {
        return driver.leaderGet();
    }

    /** A new job service each time, as each keeps its own view of the table's search indexes. */
    public JobAdmin jobs() {
        return new JobAdmin(driver, config.clock(), this::checkCancels);
    }

    public LinkAdmin links() {
        return new LinkAdmin(driver, inserter, config.clock(), this::checkCancels, this::wake);
    }

    public QueueAdmin queues() {
        return new QueueAdmin(driver, config.clock(), this::wake);
    }

    public PeriodicAdmin periodic() {
        return new PeriodicAdmin(driver, config.clock());
    }

    public AuditLog audit() {
        return new AuditLog(driver, config.clock());
    }
}
