package dev.runnel.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Configures a {@link PostgresDriver}: a URL or a DataSource (exactly one), and optionally the
 * schema and, for a URL, the pool and its connections. Each setter validates its value at once.
 */
public final class PostgresDriverBuilder {
    private PostgresUrl url;
    private DataSource dataSource;
    private PostgresSchema schema;
    private int maxPoolSize = PostgresDriver.DEFAULT_MAX_POOL_SIZE;
    private Duration connectTimeout = PostgresDriver.DEFAULT_CONNECT_TIMEOUT;
    /** Null until set: then the URL's parameter, else the default, applies. */
    private Duration socketTimeout;
    private Boolean tcpKeepAlive;
    /** Null until set: then the URL's {@code pgbouncer} parameter applies. */
    private Boolean transactionPooling;
    private PostgresUrl listenUrl;

    PostgresDriverBuilder() {}

    /** The database, as {@code postgres://user:password@host:port/database?schema=...&sslmode=...}. */
    public PostgresDriverBuilder url(String url) {
        this.url = PostgresUrl.parse(url);
        return this;
    }

    /**
     * The application's own pool to borrow connections from, instead of a URL. The driver
     * leaves its settings alone: set a socket timeout and keepalive on it.
     */
    public PostgresDriverBuilder dataSource(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        return this;
    }

    /**
     * The schema for Runnel's tables, an SQL identifier folded to lower case; default
     * {@value PostgresDriver#DEFAULT_SCHEMA}. Overrides the URL's {@code schema} parameter.
     * Migrating creates it when missing.
     */
    public PostgresDriverBuilder schema(String schema) {
        this.schema = PostgresSchema.of("schema", schema);
        return this;
    }

    /** The most connections the pool built from a URL opens; default {@value PostgresDriver#DEFAULT_MAX_POOL_SIZE}. */
    public PostgresDriverBuilder maxPoolSize(int maxPoolSize) {
        if (maxPoolSize < 1 || maxPoolSize > PostgresDriver.MAX_POOL_SIZE) {
            throw new IllegalArgumentException("maxPoolSize must be between 1 and " + PostgresDriver.MAX_POOL_SIZE + ", was "
                    + maxPoolSize);
        }
        this.maxPoolSize = maxPoolSize;
        return this;
    }

    /**
     * How long an operation waits for a connection from the pool built from a URL (and a new
     * connection for the server to answer, login included) before failing; default 10 s, at
     * least 250 ms (pgjdbc counts it in whole seconds, rounded up).
     */
    public PostgresDriverBuilder connectTimeout(Duration connectTimeout) {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (connectTimeout.compareTo(PostgresDriver.MIN_CONNECT_TIMEOUT) < 0) {
            throw new IllegalArgumentException("connectTimeout must be at least " + PostgresDriver.MIN_CONNECT_TIMEOUT.toMillis()
                    + " ms, was " + connectTimeout.toMillis() + " ms");
        }
        this.connectTimeout = connectTimeout;
        return this;
    }

    /**
     * How long a connection the driver opens from a URL waits for the server to answer before
     * it is given up as broken: {@link Duration#ZERO} for no limit, else between 1 s and
     * {@link PostgresDriver#MAX_SOCKET_TIMEOUT}, in whole seconds, rounded up. Default
     * {@link PostgresDriver#DEFAULT_SOCKET_TIMEOUT}, or the URL's {@code socketTimeout}
     * parameter (in seconds), which this overrides. Migrations lift it for their own
     * transaction.
     */
    public PostgresDriverBuilder socketTimeout(Duration socketTimeout) {
        Objects.requireNonNull(socketTimeout, "socketTimeout");
        if (!socketTimeout.isZero() && (socketTimeout.compareTo(Duration.ofSeconds(1)) < 0
                || socketTimeout.compareTo(PostgresDriver.MAX_SOCKET_TIMEOUT) > 0)) {
            throw new IllegalArgumentException("socketTimeout must be zero (no limit) or between 1 s and "
                    + PostgresDriver.MAX_SOCKET_TIMEOUT.toHours() + " h, was " + socketTimeout.toMillis() + " ms");
        }
        this.socketTimeout = socketTimeout;
        return this;
    }

    /**
     * Whether the connections the driver opens from a URL ask for TCP keepalive probes; default
     * {@value PostgresDriver#DEFAULT_TCP_KEEP_ALIVE}, or the URL's {@code tcpKeepAlive}
     * parameter, which this overrides.
     */
    public PostgresDriverBuilder tcpKeepAlive(boolean tcpKeepAlive) {
        this.tcpKeepAlive = tcpKeepAlive;
        return this;
    }

    /**
     * Whether the database is reached through a pooler in transaction mode (PgBouncer's
     * {@code pool_mode=transaction}), where consecutive transactions of one connection may run on
     * different server connections; default false, or the URL's {@code pgbouncer=transaction},
     * which this overrides. Then pgjdbc prepares no named statements on the server
     * ({@code prepareThreshold=0}) and sets no session parameter after login, and the listener
     * connects to {@link #listenUrl} or, without one, does not listen at all: the client polls for
     * new jobs every {@code fetchPollInterval} (default 1 s) instead of hearing of them at once.
     * For a driver on a DataSource only the listening changes: set {@code prepareThreshold=0} on
     * the application's own pool.
     */
    public PostgresDriverBuilder transactionPooling(boolean transactionPooling) {
        this.transactionPooling = transactionPooling;
        return this;
    }

    /**
     * A {@code postgres://} URL for the listener's connection alone, which reaches the server
     * directly (or through a pooler in session mode), so that inserts are heard at once behind a
     * transaction pooler; overrides the URL's {@code listen_url} parameter. Its own parameters
     * apply to it, with the builder's socket timeout and keepalive, if set.
     */
    public PostgresDriverBuilder listenUrl(String listenUrl) {
        PostgresUrl parsed = PostgresUrl.parse(listenUrl);
        if (parsed.transactionPooling() || parsed.listenUrl().isPresent()) {
            throw new IllegalArgumentException("listenUrl is the listener's direct connection: it takes neither"
                    + " pgbouncer nor listen_url");
        }
        this.listenUrl = parsed;
        return this;
    }

    /** Builds the driver. Connects to nothing yet: the first operation does. */
    public PostgresDriver build() {
        if ((url == null) == (dataSource == null)) {
            throw new IllegalArgumentException("a Postgres driver needs exactly one of url and dataSource");
        }
        if (dataSource != null) {
            if (socketTimeout != null || tcpKeepAlive != null) {
                throw new IllegalArgumentException((socketTimeout != null ? "socketTimeout" : "tcpKeepAlive")
                        + " applies to a driver built from a url; the application's DataSource keeps its own"
                        + " settings: set it there");
            }
            PostgresSchema chosen = schema != null ? schema : PostgresSchema.of("schema", PostgresDriver.DEFAULT_SCHEMA);
            boolean pooled = transactionPooling != null && transactionPooling;
            PostgresListener.ConnectionSource listener = listenUrl != null
                    ? listenerSource(listenUrl, chosen, timeoutSeconds())
                    : pooled ? null : PostgresListener.ConnectionSource.borrowedFrom(dataSource);
            String description = "the application's DataSource";
            return new PostgresDriver(chosen, description, "through the application's DataSource", dataSource, null,
                    new ConnectionLoss(PostgresDriver.described(description, chosen), () -> {}), listener, null);
        }
        PostgresSchema chosen = schema != null ? schema
                : url.schema().orElseGet(() -> PostgresSchema.of("schema", PostgresDriver.DEFAULT_SCHEMA));
        long timeoutSeconds = timeoutSeconds();
        boolean pooled = transactionPooling != null ? transactionPooling : url.transactionPooling();
        String jdbcUrl = url.jdbcUrl();
        Properties props = connectionProperties(url, "runnel", timeoutSeconds, pooled);
        PostgresUrl listenAt = listenUrl != null ? listenUrl : url.listenUrl().orElse(null);
        // Behind a transaction pooler a LISTEN would subscribe a server connection that the pooler
        // lends to others the moment it returns: with nowhere else to listen, the client polls.
        PostgresListener.ConnectionSource listener = listenAt != null ? listenerSource(listenAt, chosen, timeoutSeconds)
                : pooled ? null : listenerSource(url, chosen, timeoutSeconds);
        PostgresPool.Owned owned = PostgresPool.create(url, props, maxPoolSize, connectTimeout,
                PostgresDriver.described(url.description(), chosen));
        HikariDataSource pool = owned.pool();
        try {
            return new PostgresDriver(chosen, url.description(), "at " + url.description(), pool, pool, owned.loss(),
                    listener, () -> DriverManager.getConnection(jdbcUrl, props));
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    private long timeoutSeconds() {
        return Math.max(1, (connectTimeout.toMillis() + 999) / 1000);
    }

    /** Opens the listener's connection at {@code at}, a direct connection whatever the pool's is. */
    private PostgresListener.ConnectionSource listenerSource(PostgresUrl at, PostgresSchema chosen, long timeoutSeconds) {
        String jdbcUrl = at.jdbcUrl();
        // Named after the schema, so that an operator can tell listeners apart.
        Properties props = connectionProperties(at, "runnel-listener " + chosen.name(), timeoutSeconds, false);
        return () -> DriverManager.getConnection(jdbcUrl, props);
    }

    /**
     * The pgjdbc properties of a connection opened from {@code at}: Runnel's defaults, overridden
     * by the URL's parameters, overridden by this builder's settings.
     */
    private Properties connectionProperties(PostgresUrl at, String applicationName, long connectTimeoutSeconds,
            boolean pooled) {
        Properties props = at.connectionProperties(applicationName, connectTimeoutSeconds, pooled);
        if (socketTimeout != null) {
            long seconds = socketTimeout.toSeconds() + (socketTimeout.toNanosPart() > 0 ? 1 : 0);
            props.setProperty("socketTimeout", String.valueOf(seconds));
        }
        if (tcpKeepAlive != null) {
            props.setProperty("tcpKeepAlive", String.valueOf(tcpKeepAlive));
        }
        return props;
    }
}
