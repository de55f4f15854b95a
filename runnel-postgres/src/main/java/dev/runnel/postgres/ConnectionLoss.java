package dev.runnel.postgres;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A driver's account of losing its database: one line when the connection is lost (a server
 * restart, a failover, a network cut, an administrator terminating backends), however many of the
 * pool's connections and listeners find out, and one when an operation or the listener works
 * again. Whoever finds out first, also retires every pooled connection, as they most likely died
 * together: the pool then replaces them without checking and warning about each in turn.
 */
final class ConnectionLoss {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLoss.class);
    /**
     * How long after a reconnect a loss still counts as the same event: an operation that was
     * under way on a dead connection when the event began may only fail after others have
     * already reconnected.
     */
    private static final long SAME_EVENT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String description;
    private final Runnable evictPool;
    private volatile boolean down;
    /** Guarded by this. */
    private long lostAt;
    /** Guarded by this; when the last loss ended, or 0. */
    private long restoredAt;

    /**
     * @param description where the database is, for messages: never a password
     * @param evictPool retires every connection of the pool; a no-op for an application's pool
     */
    ConnectionLoss(String description, Runnable evictPool) {
        this.description = description;
        this.evictPool = evictPool;
    }

    /** A connection was found lost, for {@code reason}. */
    void lost(String reason) {
        evictPool.run();
        long now = System.nanoTime();
        synchronized (this) {
            if (down || (restoredAt != 0 && now - restoredAt < SAME_EVENT_NANOS)) {
                return;
            }
            down = true;
            lostAt = now;
        }
        LOG.warn("Postgres {}: lost the connection to the database ({}); reconnecting", description, reason);
    }

    /** Something worked on a connection: if the database was lost, it is back. Costs a volatile read otherwise. */
    void working() {
        if (!down) {
            return;
        }
        long now = System.nanoTime();
        long millis;
        synchronized (this) {
            if (!down) {
                return;
            }
            down = false;
            restoredAt = now;
            millis = TimeUnit.NANOSECONDS.toMillis(now - lostAt);
        }
        LOG.info("Postgres {}: reconnected after {} ms", description, millis);
    }
}
