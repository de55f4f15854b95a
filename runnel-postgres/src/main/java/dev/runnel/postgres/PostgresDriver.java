package dev.runnel.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.runnel.ClientRow;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.LeaderRow;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.RescuedJob;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationRecord;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Runnel's Postgres driver: jobs in {@code <schema>.runnel_job}, claimed with one
 * {@code FOR UPDATE SKIP LOCKED} statement per batch, outcomes written with one statement per
 * batch, and inserts announced with LISTEN/NOTIFY.
 *
 * <pre>{@code
 * Driver driver = PostgresDriver.fromUrl("postgres://app:secret@db:5432/app?schema=jobs&sslmode=require");
 * Driver shared = PostgresDriver.fromDataSource(applicationPool);
 * Driver tuned = PostgresDriver.builder().url(url).schema("jobs").maxPoolSize(20).build();
 * }</pre>
 *
 * <p>Built from a URL, the driver owns a HikariCP pool and closes it on {@link #close()}; built
 * from a {@link DataSource}, it borrows from the application's pool and leaves it open. Nothing
 * connects until the first operation, which throws a {@link dev.runnel.RunnelException} naming
 * host, port and database when the server cannot be reached. Passwords appear in no message,
 * log line or {@code toString()}.
 */
public final class PostgresDriver implements Driver {
    /** The schema used when none is given: {@value}. */
    public static final String DEFAULT_SCHEMA = PostgresSchema.DEFAULT;
    /**
     * The default size of a pool the driver builds: {@value}. Every statement is short and holds
     * its connection only while it runs, and a small pool leaves room under Postgres' default
     * {@code max_connections} of 100 for several processes. Not yet measured: raise it when
     * operations wait for connections.
     */
    public static final int DEFAULT_MAX_POOL_SIZE = 10;
    /** The largest pool the builder accepts: {@value}. */
    public static final int MAX_POOL_SIZE = 1_000;
    /** How long the first operation waits for a connection by default: 10 s. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The shortest connect timeout HikariCP accepts: 250 ms. */
    public static final Duration MIN_CONNECT_TIMEOUT = Duration.ofMillis(250);

    private final PostgresSchema schema;
    private final String description;
    private final PostgresConnections connections;
    private final PostgresJobs jobs;
    private final PostgresCluster cluster;
    private final PostgresMigrations migrations;
    private final PostgresListener.ConnectionSource listenerSource;
    private final DataSource dataSource;
    private final Set<PostgresListener> listeners = ConcurrentHashMap.newKeySet();

    private PostgresDriver(PostgresSchema schema, String description, DataSource dataSource, AutoCloseable ownedPool,
            Runnable evictPool, PostgresListener.ConnectionSource listenerSource) {
        this.schema = schema;
        this.description = description;
        this.connections = new PostgresConnections(dataSource, ownedPool, evictPool,
                description + " (schema " + schema + ")");
        this.jobs = new PostgresJobs(schema, connections);
        this.cluster = new PostgresCluster(schema, connections);
        this.migrations = new PostgresMigrations(schema, connections);
        this.listenerSource = listenerSource;
        this.dataSource = dataSource;
    }

    /**
     * A driver for {@code postgres://user:password@host:5432/database?schema=jobs&sslmode=require}
     * (or {@code postgresql://}), with its own pool of {@value #DEFAULT_MAX_POOL_SIZE} connections.
     * Query parameters other than {@code schema} are passed to pgjdbc as connection properties.
     */
    public static PostgresDriver fromUrl(String url) {
        return builder().url(url).build();
    }

    /**
     * A driver on the application's own pool, in schema {@value #DEFAULT_SCHEMA}. Each operation
     * borrows one connection and returns it at once; the listener for inserts keeps one borrowed
     * for as long as it listens.
     */
    public static PostgresDriver fromDataSource(DataSource dataSource) {
        return builder().dataSource(dataSource).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public boolean supportsListenNotify() {
        return true;
    }

    /**
     * The pool this driver borrows from: the application's own, or the one built from the URL. An
     * application may take connections from it for its own transactions (and transactional
     * inserts); each must be returned promptly.
     */
    public DataSource dataSource() {
        return dataSource;
    }

    /** The schema this driver keeps its tables in, as Postgres names it. */
    public String schema() {
        return schema.name();
    }

    // ---- migrations ----

    @Override
    public List<Migration> migrations() {
        return migrations.all();
    }

    @Override
    public List<MigrationRecord> migrationApplied() {
        return migrations.applied();
    }

    @Override
    public boolean migrationApply(Migration migration, boolean up) {
        return migrations.apply(migration, up);
    }

    // ---- jobs ----

    @Override
    public long[] jobInsertMany(List<JobInsertParams> batch) {
        return jobs.insertMany(batch);
    }

    @Override
    public long[] jobInsertManyTx(Connection connection, List<JobInsertParams> batch) {
        return jobs.insertManyTx(connection, batch);
    }

    @Override
    public List<JobRow> jobClaim(JobClaimParams params) {
        return jobs.claim(params);
    }

    @Override
    public long[] jobCompleteMany(JobCompleteManyParams params) {
        return jobs.completeMany(params);
    }

    @Override
    public long[] jobSetStateMany(List<JobSetStateParams> updates) {
        return jobs.setStateMany(updates);
    }

    @Override
    public void jobReinsertMany(List<JobReinsertParams> jobs) {
        this.jobs.reinsertMany(jobs);
    }

    @Override
    public int jobScheduleDue(JobScheduleParams params) {
        return jobs.scheduleDue(params);
    }

    @Override
    public Optional<JobRow> jobGet(long id) {
        return jobs.get(id);
    }

    @Override
    public List<JobRow> jobGetMany(long[] ids) {
        return jobs.getMany(ids);
    }

    @Override
    public List<JobRow> jobList(JobQuery query) {
        return jobs.list(query);
    }

    @Override
    public List<JobCount> jobCountByState() {
        return jobs.countByState();
    }

    @Override
    public List<RescuedJob> jobRescueMany(JobRescueParams params) {
        return jobs.rescueMany(params);
    }

    @Override
    public int jobDeleteFinalized(JobDeleteFinalizedParams params) {
        return jobs.deleteFinalized(params);
    }

    // ---- clients and the leader ----

    @Override
    public void clientHeartbeat(ClientHeartbeatParams params) {
        cluster.heartbeat(params);
    }

    @Override
    public void clientStop(String id, Instant now) {
        cluster.stop(id, now);
    }

    @Override
    public List<ClientRow> clientList() {
        return cluster.list();
    }

    @Override
    public List<String> clientListDead(Instant now) {
        return cluster.listDead(now);
    }

    @Override
    public void clientMarkRescued(ClientRescuedParams params) {
        cluster.markRescued(params);
    }

    @Override
    public int clientDeleteExpired(ClientDeleteParams params) {
        return cluster.deleteExpired(params);
    }

    @Override
    public boolean leaderAttemptElect(LeaderElectParams params) {
        return cluster.attemptElect(params);
    }

    @Override
    public void leaderResign(String leaderId) {
        cluster.resign(leaderId);
    }

    @Override
    public Optional<LeaderRow> leaderGet() {
        return cluster.leader();
    }

    // ---- notifications ----

    /**
     * Listens for inserts into this driver's schema, from any process, on a dedicated connection:
     * a new one opened with {@link DriverManager} for a driver built from a URL, or one borrowed
     * from the application's pool and kept (then given back, unsubscribed) for one built from a
     * DataSource. Closing the returned handle stops the thread and releases the connection.
     */
    @Override
    public AutoCloseable listenInserts(Consumer<String> queueInserted) {
        Objects.requireNonNull(queueInserted, "queueInserted");
        PostgresListener listener = PostgresListener.start(listenerSource, schema.channel(), description,
                queueInserted, listeners::remove);
        listeners.add(listener);
        return listener;
    }

    /** Stops every listener and, when the driver built it, closes the pool. Idempotent. */
    @Override
    public void close() {
        for (PostgresListener listener : List.copyOf(listeners)) {
            listener.close();
        }
        connections.close();
    }

    @Override
    public String toString() {
        return "PostgresDriver[" + description + ", schema " + schema + "]";
    }

    /**
     * Configures a {@link PostgresDriver}: a URL or a DataSource (exactly one), and optionally the
     * schema and, for a URL, the pool. Each setter validates its value at once.
     */
    public static final class Builder {
        private PostgresUrl url;
        private DataSource dataSource;
        private PostgresSchema schema;
        private int maxPoolSize = DEFAULT_MAX_POOL_SIZE;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;

        private Builder() {}

        /** The database, as {@code postgres://user:password@host:port/database?schema=...&sslmode=...}. */
        public Builder url(String url) {
            this.url = PostgresUrl.parse(url);
            return this;
        }

        /** The application's own pool to borrow connections from, instead of a URL. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /**
         * The schema for Runnel's tables, an SQL identifier folded to lower case; default
         * {@value PostgresDriver#DEFAULT_SCHEMA}. Overrides the URL's {@code schema} parameter.
         * Migrating creates it when missing.
         */
        public Builder schema(String schema) {
            this.schema = PostgresSchema.of("schema", schema);
            return this;
        }

        /** The most connections the pool built from a URL opens; default {@value PostgresDriver#DEFAULT_MAX_POOL_SIZE}. */
        public Builder maxPoolSize(int maxPoolSize) {
            if (maxPoolSize < 1 || maxPoolSize > MAX_POOL_SIZE) {
                throw new IllegalArgumentException("maxPoolSize must be between 1 and " + MAX_POOL_SIZE + ", was "
                        + maxPoolSize);
            }
            this.maxPoolSize = maxPoolSize;
            return this;
        }

        /**
         * How long an operation waits for a connection from the pool built from a URL (and a new
         * connection for the server to answer) before failing; default 10 s, at least 250 ms.
         */
        public Builder connectTimeout(Duration connectTimeout) {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            if (connectTimeout.compareTo(MIN_CONNECT_TIMEOUT) < 0) {
                throw new IllegalArgumentException("connectTimeout must be at least " + MIN_CONNECT_TIMEOUT.toMillis()
                        + " ms, was " + connectTimeout.toMillis() + " ms");
            }
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** Builds the driver. Connects to nothing yet: the first operation does. */
        public PostgresDriver build() {
            if ((url == null) == (dataSource == null)) {
                throw new IllegalArgumentException("a Postgres driver needs exactly one of url and dataSource");
            }
            if (dataSource != null) {
                PostgresSchema chosen = schema != null ? schema : PostgresSchema.of("schema", DEFAULT_SCHEMA);
                return new PostgresDriver(chosen, "the application's DataSource", dataSource, null, () -> {},
                        dataSource::getConnection);
            }
            PostgresSchema chosen = schema != null ? schema
                    : url.schema().orElseGet(() -> PostgresSchema.of("schema", DEFAULT_SCHEMA));
            long timeoutSeconds = Math.max(1, (connectTimeout.toMillis() + 999) / 1000);
            HikariDataSource pool = new HikariDataSource(poolConfig(url, timeoutSeconds));
            PostgresUrl target = url;
            try {
                return new PostgresDriver(chosen, url.description(), pool, pool, () -> evictAll(pool), () -> {
                    // Named after the schema, so that an operator can tell listeners apart.
                    Properties props = target.connectionProperties("runnel-listener " + chosen.name(), timeoutSeconds);
                    // The listener mostly waits; keepalives let the OS notice a dead peer.
                    props.setProperty("tcpKeepAlive", "true");
                    return DriverManager.getConnection(target.jdbcUrl(), props);
                });
            } catch (RuntimeException e) {
                pool.close();
                throw e;
            }
        }

        /**
         * Retires every connection of the pool: idle ones are closed now, busy ones when returned,
         * and new ones are opened in their place. See {@link PostgresConnections} for when.
         */
        private static void evictAll(HikariDataSource pool) {
            HikariPoolMXBean connections = pool.getHikariPoolMXBean();
            if (connections != null) {
                connections.softEvictConnections();
            }
        }

        private HikariConfig poolConfig(PostgresUrl url, long timeoutSeconds) {
            HikariConfig config = new HikariConfig();
            config.setPoolName("runnel-postgres");
            config.setJdbcUrl(url.jdbcUrl());
            // User and password go through Hikari's own fields, which it masks when it logs its
            // configuration, not through the driver properties.
            Properties props = url.connectionProperties("runnel", timeoutSeconds);
            props.remove("user");
            props.remove("password");
            config.setDataSourceProperties(props);
            config.setUsername(url.user());
            if (url.password() != null) {
                config.setPassword(url.password());
            }
            config.setMaximumPoolSize(maxPoolSize);
            config.setConnectionTimeout(connectTimeout.toMillis());
            // Start without connecting: a database that is down fails the first operation with a
            // clear message, not the constructor.
            config.setInitializationFailTimeout(-1);
            config.setAutoCommit(true);
            return config;
        }
    }
}
