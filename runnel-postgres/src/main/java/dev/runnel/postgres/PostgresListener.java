package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.PGStream;
import org.postgresql.core.QueryExecutorBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on one channel over a dedicated connection, never one of the pool's working
 * connections, and hands each notification's payload (a queue name) to a consumer on a platform
 * daemon thread. A lost connection is reopened with exponential backoff and jitter; notifications
 * sent while it was down are lost: the consumer is told {@link Driver#NOT_LISTENING} when the
 * connection goes and {@link Driver#LISTENING} when it is (back) in place, so that clients poll
 * meanwhile and fetch once it returns.
 */
final class PostgresListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresListener.class);

    /**
     * How long one wait for notifications blocks on a connection borrowed from the application's
     * pool. It bounds how long {@link #close()} waits for the thread, which must give the
     * connection back healthy and unsubscribed. A notification is delivered as soon as it arrives,
     * whatever this is. pgjdbc puts it in place of the socket timeout for the wait and restores
     * that after, so an idle, healthy listener never meets the socket timeout however short it is.
     */
    private static final int BORROWED_POLL_MILLIS = 250;
    /**
     * The same on the listener's own connection, which {@link #close()} aborts to end the wait at
     * once. Each wait that ends empty costs the thread a wake-up and pgjdbc a timeout exception,
     * about 0.1 ms of CPU: at 250 ms, 20 idle clients spent 1% of a core on them.
     */
    private static final int OWNED_POLL_MILLIS = 10_000;
    /** How often an idle connection is checked, so that a silently dropped one is noticed. */
    private static final long CHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final int CHECK_TIMEOUT_SECONDS = 5;
    private static final long BACKOFF_FIRST_MILLIS = 100;
    /** The longest wait between reconnection attempts: short, since wake-ups are lost meanwhile. */
    private static final long BACKOFF_MAX_MILLIS = 5_000;

    /** Opens the listener's connection: a new physical one, or one kept from the application's pool. */
    @FunctionalInterface
    interface ConnectionSource {
        Connection open() throws SQLException;

        /** Whether the connection is the listener's alone (closed, not given back, when it stops). */
        default boolean owned() {
            return true;
        }

        /** Connections borrowed from {@code pool}, given back when the listener stops. */
        static ConnectionSource borrowedFrom(javax.sql.DataSource pool) {
            return new ConnectionSource() {
                @Override
                public Connection open() throws SQLException {
                    return pool.getConnection();
                }

                @Override
                public boolean owned() {
                    return false;
                }
            };
        }
    }

    private final ConnectionSource source;
    private final String channel;
    private final String description;
    private final ConnectionLoss loss;
    private final Consumer<String> consumer;
    private final Consumer<PostgresListener> onClose;
    private final Thread thread;
    private volatile boolean stopping;
    /** How long one wait for notifications blocks: {@link #OWNED_POLL_MILLIS} or {@link #BORROWED_POLL_MILLIS}. */
    private final int pollMillis;
    /** Touched only by the thread once started, but for {@link #close()} aborting it. */
    private volatile Connection connection;
    private PGConnection notifications;

    private PostgresListener(ConnectionSource source, String channel, String description, ConnectionLoss loss,
            Consumer<String> consumer, Consumer<PostgresListener> onClose) {
        this.source = source;
        this.channel = channel;
        this.description = description;
        this.loss = loss;
        this.consumer = consumer;
        this.onClose = onClose;
        this.pollMillis = source.owned() ? OWNED_POLL_MILLIS : BORROWED_POLL_MILLIS;
        this.thread = Thread.ofPlatform().daemon().name("runnel-postgres-listener-" + channel).unstarted(this::loop);
    }

    /**
     * Starts listening. The first connection is opened before this returns, so that an insert made
     * after it is seen; if it cannot be, the thread keeps trying in the background. A lost
     * connection, and its return, are told to {@code loss}, which logs the event once for the
     * whole driver. {@code onClose} is told when the listener has been closed.
     */
    static PostgresListener start(ConnectionSource source, String channel, String description, ConnectionLoss loss,
            Consumer<String> consumer, Consumer<PostgresListener> onClose) {
        PostgresListener listener = new PostgresListener(source, channel, description, loss, consumer, onClose);
        try {
            listener.connect();
            listener.tell(Driver.LISTENING);
        } catch (SQLException e) {
            LOG.warn("Postgres listener for {} cannot connect yet, will retry: {}", description,
                    PostgresConnections.rootMessage(e));
        }
        listener.thread.start();
        return listener;
    }

    private void connect() throws SQLException {
        Connection c = source.open();
        try {
            // Fails here, not at the first wait, when an application's pool is not pgjdbc's.
            PGConnection pg = c.unwrap(PGConnection.class);
            // LISTEN takes effect on commit: in a transaction it would wait for one.
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                // The channel is built only from the validated schema name: no user text.
                st.execute("LISTEN " + channel);
            }
            if (!setTimedPeek(c, false)) {
                LOG.debug("Postgres listener for {}: this pgjdbc waits 1 ms after each notification", description);
            }
            connection = c;
            notifications = pg;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c, false);
            throw e;
        }
    }

    private void loop() {
        long backoff = BACKOFF_FIRST_MILLIS;
        long lastCheck = System.nanoTime();
        while (!stopping) {
            try {
                if (connection == null) {
                    connect();
                    if (stopping) {
                        break; // close() may have looked for a connection to abort before this one was in place
                    }
                    LOG.debug("Postgres listener for {} is listening again", description);
                    loss.working();
                    backoff = BACKOFF_FIRST_MILLIS;
                    tell(Driver.LISTENING);
                }
                PGNotification[] arrived = notifications.getNotifications(pollMillis);
                if (arrived != null && arrived.length > 0) {
                    deliver(arrived);
                    lastCheck = System.nanoTime();
                } else if (System.nanoTime() - lastCheck > CHECK_INTERVAL_NANOS) {
                    if (!connection.isValid(CHECK_TIMEOUT_SECONDS)) {
                        throw new SQLException("the connection stopped answering", "08006");
                    }
                    lastCheck = System.nanoTime();
                }
            } catch (SQLException | RuntimeException e) {
                if (stopping) {
                    break;
                }
                if (connection != null) {
                    tell(Driver.NOT_LISTENING);
                }
                closeQuietly(connection, false);
                connection = null;
                notifications = null;
                long delay = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
                loss.lost("the listener's connection failed: " + PostgresConnections.rootMessage(e));
                LOG.debug("Postgres listener for {} lost its connection ({}); reconnecting in {} ms", description,
                        PostgresConnections.rootMessage(e), delay);
                sleep(delay);
                backoff = Math.min(backoff * 2, BACKOFF_MAX_MILLIS);
            }
        }
        // Clear close()'s interrupt first, so that it cannot fail the UNLISTEN.
        Thread.interrupted();
        closeQuietly(connection, true);
        connection = null;
        notifications = null;
    }

    /**
     * Once a wait for notifications has read one, pgjdbc looks for more by reading the socket
     * with a 1 ms timeout ({@code PGStream.hasMessagePending}), unless it looked and found the
     * socket quiet shortly before; a look that times out does not count as one, so every delivery
     * waited at least that millisecond, and longer where timers are coarse: each job woken by a
     * notification started that much later. Putting pgjdbc's next such look off for good
     * ({@code on} false) makes it read on only while bytes have arrived already (it asks the
     * socket, without waiting), which delivers a burst whole and the rest at the next wait, as
     * soon as they come; {@code on} true puts the field back as pgjdbc opens a connection, before
     * one borrowed from an application's pool goes back to it. Returns whether it could be done: a
     * pgjdbc whose internals differ keeps its 1 ms wait ({@code PostgresListenTest} fails on such
     * a pgjdbc).
     */
    static boolean setTimedPeek(Connection c, boolean on) {
        try {
            PGStream stream = stream(c);
            if (stream == null) {
                return false;
            }
            nextLookField().setLong(stream, on ? 0 : Long.MAX_VALUE);
            return true;
        } catch (SQLException | ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** What {@link #setTimedPeek} set on {@code c}: 0 as pgjdbc opens a connection, else never. */
    static long nextLook(Connection c) throws SQLException, ReflectiveOperationException {
        PGStream stream = stream(c);
        if (stream == null) {
            throw new NoSuchFieldException("pgStream");
        }
        return nextLookField().getLong(stream);
    }

    /** {@code c}'s pgjdbc stream, or null when its query executor is not pgjdbc's usual one. */
    private static PGStream stream(Connection c) throws SQLException, ReflectiveOperationException {
        Object executor = c.unwrap(BaseConnection.class).getQueryExecutor();
        if (!(executor instanceof QueryExecutorBase)) {
            return null;
        }
        Field stream = QueryExecutorBase.class.getDeclaredField("pgStream");
        stream.setAccessible(true);
        return (PGStream) stream.get(executor);
    }

    private static Field nextLookField() throws NoSuchFieldException {
        Field nextLook = PGStream.class.getDeclaredField("nextStreamAvailableCheckTime");
        nextLook.setAccessible(true);
        return nextLook;
    }

    private void deliver(PGNotification[] arrived) {
        for (PGNotification n : arrived) {
            tell(n.getParameter());
        }
    }

    private void tell(String message) {
        try {
            consumer.accept(message);
        } catch (RuntimeException e) {
            LOG.warn("insert listener failed for {}", message, e);
        }
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            // close() interrupts to cut the wait short; the loop sees stopping.
        }
    }

    /** Stops the thread and releases the connection; waits at most a few polls. Idempotent. */
    @Override
    public void close() {
        if (stopping) {
            return;
        }
        stopping = true;
        thread.interrupt();
        Connection c = connection;
        if (c != null && source.owned()) {
            // Ends the wait for notifications now rather than at its timeout; the thread then
            // finds the listener stopping and closes what is left.
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException e) {
                // the wait ends at its timeout instead
            }
        }
        try {
            thread.join(BORROWED_POLL_MILLIS * 8L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        onClose.accept(this);
    }

    /**
     * Closes {@code c}; when it is healthy, first UNLISTENs, since a connection kept from an
     * application's pool goes back to it and must not carry our subscription to its next user,
     * nor our setting of its wait for notifications.
     */
    private void closeQuietly(Connection c, boolean unlisten) {
        if (c == null) {
            return;
        }
        if (!source.owned()) {
            setTimedPeek(c, true);
        }
        if (unlisten) {
            try (Statement st = c.createStatement()) {
                st.execute("UNLISTEN *");
            } catch (SQLException e) {
                // broken: the pool discards it
            }
        }
        try {
            c.close();
        } catch (SQLException e) {
            // closing anyway
        }
    }
}
