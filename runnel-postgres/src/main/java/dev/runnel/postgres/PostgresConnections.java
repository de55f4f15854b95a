package dev.runnel.postgres;

import dev.runnel.RunnelConnectException;
import dev.runnel.RunnelException;
import dev.runnel.driver.DataRejectedException;
import java.io.IOException;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.sql.DataSource;
import org.postgresql.util.PSQLException;

/**
 * Lends a connection from the pool for one operation and takes it back at once: no connection is
 * tied to a worker or a thread. A single statement runs in autocommit, with no BEGIN/COMMIT
 * around it; only multi-statement work (migrations) runs in a transaction.
 *
 * <p>Statements are prepared afresh on each loan: pgjdbc caches the server-side prepared
 * statement per physical connection by SQL text, so from the fifth use on
 * ({@code prepareThreshold}) each statement is parsed and planned once per connection, not per call.
 */
final class PostgresConnections implements AutoCloseable {

    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * SQLSTATEs that say the connection itself is gone, not the statement: class 08 (connection
     * exception) and the server ending the session: 57P01 terminated by an administrator, 57P02
     * crash, 57P03 cannot connect now, 57P05 idle session timeout.
     */
    private static final Set<String> CONNECTION_LOST = Set.of("57P01", "57P02", "57P03", "57P05");

    private final DataSource dataSource;
    private final AutoCloseable ownedPool;
    private final ConnectionLoss loss;
    private final String description;
    private final String where;
    private final PostgresListener.ConnectionSource direct;
    private volatile boolean closed;
    /** Whether a connection has ever been made: from then on the pool alone reports failures. */
    private volatile boolean connected;
    /** The direct attempt under way, which first operations arriving meanwhile share; guarded by this. */
    private CompletableFuture<Void> firstAttempt;

    /**
     * @param ownedPool the pool to close with the driver, or null when the application owns it
     * @param loss told when a connection is found lost (it retires the pool's connections, but an
     *     application's, which is not ours to manage, and logs the event once) and when operations
     *     work again
     * @param description where the database is, for messages: never a password
     * @param where where the server is, as "cannot connect to Postgres ..." goes on: {@code at
     *     host:port/database}, or {@code through the application's DataSource}
     * @param direct opens one connection outside the pool, to tell fast why the server cannot be
     *     reached before any connection has been made; null when there is no such way
     */
    PostgresConnections(DataSource dataSource, AutoCloseable ownedPool, ConnectionLoss loss, String description,
            String where, PostgresListener.ConnectionSource direct) {
        this.dataSource = dataSource;
        this.ownedPool = ownedPool;
        this.loss = loss;
        this.description = description;
        this.where = where;
        this.direct = direct;
    }

    /** Runs {@code work} on a borrowed connection in autocommit. */
    <T> T run(String operation, Work<T> work) {
        try (Connection connection = borrow()) {
            // An application's pool may hand out connections with autocommit off; a statement left
            // open there would be rolled back when the connection goes back.
            boolean autoCommit = connection.getAutoCommit();
            if (!autoCommit) {
                connection.setAutoCommit(true);
            }
            try {
                T result = work.run(connection);
                loss.working();
                return result;
            } finally {
                if (!autoCommit) {
                    connection.setAutoCommit(false);
                }
            }
        } catch (SQLException e) {
            throw lost(operation, e);
        }
    }

    /** Runs {@code work} in one transaction on a borrowed connection, rolling back on failure. */
    <T> T transaction(String operation, Work<T> work) {
        try (Connection connection = borrow()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                loss.working();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection, e);
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw lost(operation, e);
        }
    }

    /**
     * The failure of an operation on a pooled connection. When the connection was lost, the pool
     * has already discarded it as broken, but its siblings most likely died with it (a server
     * restart, a failover, a network cut, an administrator terminating backends), and the pool
     * skips its liveness check for a connection used in the last half second: each would fail one
     * more operation, and a retrying producer would back off once per dead connection. So every
     * pooled connection is retired now, idle ones closed at once and busy ones when returned, and
     * the retry gets a fresh one; the event is logged once ({@link ConnectionLoss}).
     */
    private RuntimeException lost(String operation, SQLException e) {
        if (connectionLost(e)) {
            loss.lost(operation + " failed: " + rootMessage(e));
        }
        return failure(operation, e);
    }

    /** Whether {@code e}, or an exception beneath it, says the connection is gone. */
    static boolean connectionLost(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || CONNECTION_LOST.contains(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    private Connection borrow() {
        if (closed) {
            throw new RunnelException("Postgres driver for " + description + " is closed");
        }
        if (!connected && direct != null) {
            checkFirstConnection();
        }
        try {
            Connection connection = dataSource.getConnection();
            connected = true;
            return connection;
        } catch (SQLException e) {
            throw cannotConnect(e);
        }
    }

    /**
     * Until a connection has been made, tries one outside the pool first. The pool would retry a
     * refused or rejected connection for its whole connection timeout and then report its own
     * state; this attempt fails within the connect timeout with the server's or the network's
     * reason. First operations that arrive while it is under way wait for its outcome rather than
     * each open a connection of their own.
     */
    private void checkFirstConnection() {
        CompletableFuture<Void> attempt;
        boolean mine;
        synchronized (this) {
            if (connected) {
                return;
            }
            mine = firstAttempt == null;
            if (mine) {
                firstAttempt = new CompletableFuture<>();
            }
            attempt = firstAttempt;
        }
        if (mine) {
            try (Connection _ = direct.open()) {
                connected = true;
            } catch (SQLException | RuntimeException e) {
                if (!connected) {
                    attempt.completeExceptionally(e);
                }
            } finally {
                synchronized (this) {
                    firstAttempt = null;
                }
                attempt.complete(null);
            }
        }
        try {
            attempt.join();
        } catch (CompletionException e) {
            throw cannotConnect(e.getCause());
        }
    }

    private RunnelConnectException cannotConnect(Throwable e) {
        return new RunnelConnectException("cannot connect to Postgres " + where + ": " + connectReason(e), e);
    }

    /**
     * Why a connection failed, in one line: the server's own words when it refused the session (a
     * missing database or role, failed authentication); else the network's ("Connection refused"),
     * which pgjdbc and the pool wrap in words of their own; else pgjdbc's ("Invalid sslmode
     * value"), not its cause's ("For input string").
     */
    static String connectReason(Throwable e) {
        IOException network = null;
        SQLException jdbc = null;
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PSQLException p && p.getServerErrorMessage() != null
                    && p.getServerErrorMessage().getMessage() != null) {
                return oneLine(p.getServerErrorMessage().getMessage());
            }
            if (t instanceof IOException io) {
                network = io;
            } else if (t instanceof SQLException sql) {
                jdbc = sql;
            }
            root = t;
        }
        Throwable reason = network != null ? network : jdbc != null ? jdbc : root;
        String message = reason.getMessage() == null ? reason.getClass().getSimpleName() : reason.getMessage();
        return oneLine(reason instanceof UnknownHostException ? "unknown host " + message : message);
    }

    private static String oneLine(String message) {
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /**
     * The exception for a failed operation, naming the database and the operation: a
     * {@link DataRejectedException} when the server refused the statement for its data.
     */
    RunnelException failure(String operation, SQLException e) {
        String message = "Postgres " + description + ": " + operation + " failed: " + e.getMessage();
        return dataRejected(e) ? new DataRejectedException(message, e) : new RunnelException(message, e);
    }

    /**
     * Whether the server refused a statement for the data it carried: SQLSTATE class 22 (data
     * exception: a NUL in text, a malformed JSON value, a time out of range) or 23 (integrity
     * constraint violation). Such a statement was not applied, and would fail again as it is.
     */
    static boolean dataRejected(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }

    /**
     * Whether {@code e}, or an exception beneath it, is Postgres ending a transaction to resolve a
     * conflict with another: a deadlock (40P01) or a serialization failure (40001). Nothing of the
     * transaction was applied, and trying it again is the answer: such a failure is a plain
     * {@link RunnelException}, never a {@link DataRejectedException} (the data was not at fault).
     */
    static boolean conflict(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && ("40P01".equals(sql.getSQLState())
                    || "40001".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The innermost message: a pool's "request timed out" says less than the refused connection or
     * failed authentication beneath it.
     */
    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return root == e ? message : message + " (" + e.getMessage() + ")";
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ownedPool != null) {
            try {
                ownedPool.close();
            } catch (Exception e) {
                throw new RunnelException("closing the Postgres pool for " + description + " failed", e);
            }
        }
    }
}
