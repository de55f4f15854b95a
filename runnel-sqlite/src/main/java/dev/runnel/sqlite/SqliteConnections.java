package dev.runnel.sqlite;

import dev.runnel.RunnelException;
import dev.runnel.driver.DataRejectedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The SQLite connections of one driver: a single writer serialised by a fair lock, and reader
 * connections for reads (none for {@code :memory:}, whose data only the writer's connection sees).
 *
 * <p>SQLite's native busy handler sleeps inside native code, which pins the virtual thread's
 * carrier; so {@code busy_timeout} is 0 and SQLITE_BUSY is retried here at a constant, fair 1 ms
 * interval with a sleep that releases the carrier, up to the busy timeout.
 */
final class SqliteConnections implements AutoCloseable {
    /** The retry interval on SQLITE_BUSY: constant, so that no waiter is starved by backoff. */
    private static final long BUSY_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    @FunctionalInterface
    interface Work<T> {
        T run(Session session) throws SQLException;
    }

    /** A connection lent for one operation, with its prepared statements cached. */
    static final class Session {
        final Connection connection;
        private final Map<String, PreparedStatement> statements = new HashMap<>();

        Session(Connection connection) {
            this.connection = connection;
        }

        PreparedStatement prepare(String sql) throws SQLException {
            PreparedStatement ps = statements.get(sql);
            if (ps == null) {
                ps = connection.prepareStatement(sql);
                statements.put(sql, ps);
            }
            return ps;
        }

        void exec(String sql) throws SQLException {
            try (Statement st = connection.createStatement()) {
                st.execute(sql);
            }
        }

        void close() {
            for (PreparedStatement ps : statements.values()) {
                try {
                    ps.close();
                } catch (SQLException ignored) {
                    // closing anyway
                }
            }
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }

    private final String description;
    private final Duration busyTimeout;
    private final ReentrantLock writeLock = new ReentrantLock(true);
    private final Session writer;
    private final ArrayBlockingQueue<Session> readers;
    private final List<Session> allReaders = new ArrayList<>();
    private volatile boolean closed;

    SqliteConnections(String jdbcUrl, String description, boolean memory, int readerCount, Duration busyTimeout) {
        this.description = description;
        this.busyTimeout = busyTimeout;
        this.readers = new ArrayBlockingQueue<>(Math.max(1, readerCount));
        try {
            this.writer = new Session(open(jdbcUrl, memory, false));
            if (!memory) {
                for (int i = 0; i < readerCount; i++) {
                    Session reader = new Session(open(jdbcUrl, false, true));
                    readers.add(reader);
                    allReaders.add(reader);
                }
            }
        } catch (SQLException e) {
            throw new RunnelException("cannot open SQLite database " + description + ": " + e.getMessage(), e);
        }
    }

    private static Connection open(String jdbcUrl, boolean memory, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(0);
        if (!memory && !readOnly) {
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        }
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        config.setCacheSize(-16_000); // 16 MB page cache per connection
        if (readOnly) {
            config.setReadOnly(true);
        }
        return config.createConnection(jdbcUrl);
    }

    /** Runs one write in autocommit under the writer lock, retrying while the database is busy. */
    <T> T write(Work<T> work) {
        return underWriteLock(work, false);
    }

    /** Runs several writes in one {@code BEGIN IMMEDIATE} transaction under the writer lock. */
    <T> T writeTransaction(Work<T> work) {
        return underWriteLock(work, true);
    }

    private <T> T underWriteLock(Work<T> work, boolean transaction) {
        writeLock.lock();
        try {
            checkOpen();
            long deadline = System.nanoTime() + busyTimeout.toNanos();
            while (true) {
                try {
                    if (!transaction) {
                        return work.run(writer);
                    }
                    writer.exec("BEGIN IMMEDIATE");
                    try {
                        T result = work.run(writer);
                        writer.exec("COMMIT");
                        return result;
                    } catch (SQLException | RuntimeException e) {
                        rollbackQuietly();
                        throw e;
                    }
                } catch (SQLException e) {
                    awaitRetry(e, deadline);
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Runs a read on a reader connection (the writer's, for {@code :memory:}). */
    <T> T read(Work<T> work) {
        checkOpen();
        if (allReaders.isEmpty()) {
            return write(work);
        }
        Session session;
        try {
            session = readers.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunnelException("interrupted waiting for a SQLite reader", e);
        }
        try {
            long deadline = System.nanoTime() + busyTimeout.toNanos();
            while (true) {
                try {
                    return work.run(session);
                } catch (SQLException e) {
                    awaitRetry(e, deadline);
                }
            }
        } finally {
            readers.add(session);
        }
    }

    private void awaitRetry(SQLException e, long deadline) {
        if (!isBusy(e)) {
            String message = "SQLite " + description + ": " + e.getMessage();
            throw dataRejected(e) ? new DataRejectedException(message, e) : new RunnelException(message, e);
        }
        if (System.nanoTime() - deadline > 0) {
            throw new RunnelException("SQLite " + description + " stayed locked by another process for longer than "
                    + busyTimeout.toMillis() + " ms", e);
        }
        try {
            // Thread.sleep unmounts a virtual thread, so waiting here pins no carrier.
            TimeUnit.NANOSECONDS.sleep(BUSY_RETRY_NANOS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new RunnelException("interrupted waiting for SQLite " + description, ie);
        }
    }

    /**
     * Whether SQLite refused a statement for the data it carried: a constraint (CHECK, NOT NULL,
     * UNIQUE, a trigger's RAISE), a type mismatch, a value too big, or malformed JSON given to a
     * JSON function. Such a statement was not applied, and would fail again as it is.
     */
    static boolean dataRejected(SQLException e) {
        if (!(e instanceof SQLiteException se)) {
            return false;
        }
        int primary = se.getResultCode().code & 0xff;
        return primary == SQLiteErrorCode.SQLITE_CONSTRAINT.code || primary == SQLiteErrorCode.SQLITE_MISMATCH.code
                || primary == SQLiteErrorCode.SQLITE_TOOBIG.code
                || primary == SQLiteErrorCode.SQLITE_ERROR.code && String.valueOf(e.getMessage()).contains("malformed JSON");
    }

    static boolean isBusy(SQLException e) {
        if (e instanceof SQLiteException se) {
            int primary = se.getResultCode().code & 0xff;
            return primary == SQLiteErrorCode.SQLITE_BUSY.code || primary == SQLiteErrorCode.SQLITE_LOCKED.code;
        }
        return false;
    }

    private void rollbackQuietly() {
        try {
            writer.exec("ROLLBACK");
        } catch (SQLException ignored) {
            // the transaction may already be gone
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new RunnelException("SQLite driver for " + description + " is closed");
        }
    }

    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            writer.close();
            allReaders.forEach(Session::close);
        } finally {
            writeLock.unlock();
        }
    }
}
