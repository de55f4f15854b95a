package dev.runnel.postgres;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/** The HikariCP pool that a driver built from a URL owns: how it is configured, and how it is retired. */
final class PostgresPool {
    private PostgresPool() {}

    /** A pool and the account of its connections' loss, which retires the pool's connections. */
    record Owned(HikariDataSource pool, ConnectionLoss loss) {}

    /**
     * A pool for {@code url} that has not connected: built without its configuration, it starts at
     * the first getConnection(), not here, so nothing connects, not even in the background, until
     * the first operation. {@code description} says where the database is, for messages.
     */
    static Owned create(PostgresUrl url, Properties connectionProperties, int maxPoolSize, Duration connectTimeout,
            String description) {
        HikariDataSource pool = new HikariDataSource();
        try {
            pool.setPoolName("runnel-postgres");
            ConnectionLoss loss = new ConnectionLoss(description, () -> evictAll(pool));
            // User and password stay in the connection properties of a DataSource of ours, which
            // the pool never logs; the pool's liveness checks go through it (see WatchedDataSource).
            Properties props = new Properties();
            props.putAll(connectionProperties);
            props.setProperty("user", url.user());
            if (url.password() != null) {
                props.setProperty("password", url.password());
            } else {
                props.remove("password");
            }
            pool.setDataSource(new WatchedDataSource(url.jdbcUrl(), props, loss));
            pool.setExceptionOverride(new RetiredOnLoss(loss));
            pool.setMaximumPoolSize(maxPoolSize);
            pool.setConnectionTimeout(connectTimeout.toMillis());
            // Start without connecting: a database that is down fails the first operation with a
            // clear message, not the constructor.
            pool.setInitializationFailTimeout(-1);
            pool.setAutoCommit(true);
            return new Owned(pool, loss);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * What the pool does with a connection whose statement failed: when the connection is lost,
     * the loss is told, which retires every connection of the pool, this one included (closed when
     * it is returned), and logs the event once; so the pool need not mark it broken, which it
     * would log with a stack trace for each connection in use. Any other failure is the pool's to
     * judge, as without this.
     */
    private record RetiredOnLoss(ConnectionLoss loss) implements SQLExceptionOverride {
        @java.lang.Override
        public SQLExceptionOverride.Override adjudicate(SQLException e) {
            if (!PostgresConnections.connectionLost(e)) {
                return SQLExceptionOverride.Override.CONTINUE_EVICT;
            }
            loss.lost("a pooled connection failed: " + PostgresConnections.rootMessage(e));
            return SQLExceptionOverride.Override.DO_NOT_EVICT;
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
