package dev.runnel.postgres;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.time.Duration;
import java.util.Properties;

/** The HikariCP pool that a driver built from a URL owns: how it is configured, and how it is retired. */
final class PostgresPool {
    private PostgresPool() {}

    /**
     * A pool for {@code url} that has not connected: built without its configuration, it starts at
     * the first getConnection(), not here, so nothing connects, not even in the background, until
     * the first operation.
     */
    static HikariDataSource create(PostgresUrl url, Properties connectionProperties, int maxPoolSize,
            Duration connectTimeout) {
        HikariDataSource pool = new HikariDataSource();
        try {
            pool.setPoolName("runnel-postgres");
            pool.setJdbcUrl(url.jdbcUrl());
            // User and password go through Hikari's own fields, which it masks when it logs its
            // configuration, not through the driver properties.
            Properties props = new Properties();
            props.putAll(connectionProperties);
            props.remove("user");
            props.remove("password");
            pool.setDataSourceProperties(props);
            pool.setUsername(url.user());
            if (url.password() != null) {
                pool.setPassword(url.password());
            }
            pool.setMaximumPoolSize(maxPoolSize);
            pool.setConnectionTimeout(connectTimeout.toMillis());
            // Start without connecting: a database that is down fails the first operation with a
            // clear message, not the constructor.
            pool.setInitializationFailTimeout(-1);
            pool.setAutoCommit(true);
            return pool;
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * Retires every connection of the pool: idle ones are closed now, busy ones when returned,
     * and new ones are opened in their place. See {@link PostgresConnections} for when.
     */
    static void evictAll(HikariDataSource pool) {
        HikariPoolMXBean connections = pool.getHikariPoolMXBean();
        if (connections != null) {
            connections.softEvictConnections();
        }
    }
}
