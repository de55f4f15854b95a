package dev.runnel.postgres;

import dev.runnel.RunnelException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

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

    private final DataSource dataSource;
    private final AutoCloseable ownedPool;
    private final String description;
    private volatile boolean closed;

    /**
     * @param ownedPool the pool to close with the driver, or null when the application owns it
     * @param description where the database is, for messages: never a password
     */
    PostgresConnections(DataSource dataSource, AutoCloseable ownedPool, String description) {
        this.dataSource = dataSource;
        this.ownedPool = ownedPool;
        this.description = description;
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
                return work.run(connection);
            } finally {
                if (!autoCommit) {
                    connection.setAutoCommit(false);
                }
            }
        } catch (SQLException e) {
            throw failure(operation, e);
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
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection, e);
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw failure(operation, e);
        }
    }

    private Connection borrow() {
        if (closed) {
            throw new RunnelException("Postgres driver for " + description + " is closed");
        }
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw new RunnelException("cannot connect to Postgres at " + description + ": " + rootMessage(e), e);
        }
    }

    /** The exception for a failed operation, naming the database and the operation. */
    RunnelException failure(String operation, SQLException e) {
        return new RunnelException("Postgres " + description + ": " + operation + " failed: " + e.getMessage(), e);
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
