package dev.runnel.bench;

import dev.runnel.Drivers;
import dev.runnel.Migrator;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import dev.runnel.postgres.PostgresDriver;
import dev.runnel.redis.RedisDriver;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * The database a benchmark runs in. On Postgres each run gets a schema of its own, migrated fresh
 * and dropped afterwards, so that runs neither see each other's rows nor slow down as leftover
 * jobs pile up (vacuum cost grows with the table); the schema is marked as the benchmark's, and
 * dropped only when it carries the mark. On Redis each run gets a namespace of its own (the URL's
 * prefix followed by {@code -bench-} and a random name), deleted afterwards. Elsewhere (SQLite) it
 * is the database as given.
 */
public final class BenchDatabase implements AutoCloseable {
    private final Driver driver;
    private final String url;
    private final ServerStats stats;
    private final String schema;
    /** Whether the driver is on a Redis namespace this run made, deleted at close. */
    private final boolean ownNamespace;

    private BenchDatabase(Driver driver, String url, ServerStats stats, String schema) {
        this(driver, url, stats, schema, false);
    }

    private BenchDatabase(Driver driver, String url, ServerStats stats, String schema, boolean ownNamespace) {
        this.driver = driver;
        this.url = url;
        this.stats = stats;
        this.schema = schema;
        this.ownNamespace = ownNamespace;
    }

    /**
     * Opens the database at {@code url}, on Postgres in a new schema, migrated. Throws
     * {@link IllegalArgumentException} on a bad URL, and a {@link dev.runnel.RunnelConnectException}
     * at once when Postgres cannot be reached.
     */
    public static BenchDatabase open(String url) {
        if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
            String schema = "runnel_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            String own = url + (url.contains("?") ? "&" : "?") + "schema=" + schema;
            PostgresDriver pg = PostgresDriver.fromUrl(own);
            try {
                // Here rather than in the run, so that a database that cannot be reached fails
                // fast, before there is a schema to drop (through the pool, which would wait out
                // its connection timeout first). A migration that fails is rolled back with its schema.
                new Migrator(pg).up();
                try (Connection c = pg.dataSource().getConnection()) {
                    BenchSchema.mark(c, schema);
                }
            } catch (SQLException e) {
                pg.close();
                throw new RunnelException("marking the bench schema " + schema + " failed: " + e.getMessage(), e);
            } catch (RuntimeException e) {
                pg.close();
                throw e;
            }
            return new BenchDatabase(pg, own, new PostgresServerStats(pg.dataSource(), schema), schema);
        }
        if (url.startsWith("redis://") || url.startsWith("rediss://")) {
            // A namespace of the run's own, dropped afterwards through its own sets of keys.
            String own = redisNamespace(url, "bench-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
            Driver redis = Drivers.open(own);
            try {
                new Migrator(redis).up();
            } catch (RuntimeException e) {
                redis.close();
                throw e;
            }
            ServerStats stats = redis instanceof RedisDriver r ? new RedisServerStats(r) : ServerStats.NONE;
            return new BenchDatabase(redis, own, stats, null, true);
        }
        return new BenchDatabase(Drivers.open(url), url, ServerStats.NONE, null);
    }

    /** {@code url} with its namespace (the {@code prefix} parameter, default runnel) followed by {@code -suffix}. */
    static String redisNamespace(String url, String suffix) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        String prefix = "runnel";
        StringBuilder rest = new StringBuilder();
        if (query >= 0) {
            for (String pair : url.substring(query + 1).split("&")) {
                if (pair.startsWith("prefix=")) {
                    prefix = pair.substring("prefix=".length());
                } else if (!pair.isEmpty()) {
                    rest.append('&').append(pair);
                }
            }
        }
        return base + "?prefix=" + prefix + "-" + suffix + rest;
    }

    public Driver driver() {
        return driver;
    }

    /** The URL worker processes open: it names this run's own schema, where there is one. */
    public String url() {
        return url;
    }

    public ServerStats stats() {
        return stats;
    }

    /** The job table's sizes and vacuum statistics, where the run has a Postgres schema of its own. */
    public Optional<PostgresTableStats> tableStats() {
        return schema != null && driver instanceof PostgresDriver pg
                ? Optional.of(new PostgresTableStats(pg.dataSource(), schema)) : Optional.empty();
    }

    /** Drops this run's own schema or Redis namespace, if it has one, and closes the driver. */
    @Override
    public void close() {
        try {
            if (ownNamespace) {
                new Migrator(driver).down(1);
            }
            if (schema != null && driver instanceof PostgresDriver pg) {
                try (Connection c = pg.dataSource().getConnection()) {
                    BenchSchema.dropIfOwn(c, schema);
                } catch (SQLException e) {
                    throw new RunnelException("dropping the bench schema " + schema + " failed: " + e.getMessage(), e);
                }
            }
        } finally {
            driver.close();
        }
    }
}
