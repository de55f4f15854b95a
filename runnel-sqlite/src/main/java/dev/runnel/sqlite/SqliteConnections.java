package dev.runnel.sqlite;

import dev.runnel.RunnelException;
import dev.runnel.driver.DataRejectedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * carrier, and backs off; so by default ({@link SqliteBusyWait#FAIR}) {@code busy_timeout} is 0 and
 * SQLITE_BUSY is retried here at a constant 1 ms interval with a sleep that releases the carrier,
 * up to the busy timeout, the writers of all processes taking turns in order of arrival through a
 * {@link SqliteWaitQueue}. {@link SqliteBusyWait#NATIVE} leaves the waiting to SQLite, for comparison.
 */
final class SqliteConnections implements AutoCloseable {
    /** The retry interval on SQLITE_BUSY: constant, so that no waiter is starved by backoff. */
    private static final long BUSY_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long NO_TICKET = -1;
    /**
     * Writes of this process one turn in the cross-process queue may serve, while more of its
     * threads wait for the writer: without it every write of a busy process went to the back of
     * the queue and paid a whole hand-over (a 1 ms poll), and 8 processes x 4 threads wrote a
     * third as much as with SQLite's native handler (docs/benchmarks.md).
     */
    static final int MAX_WRITES_PER_TURN = 16;

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

        /** Closes the statements prepared, leaving the connection open: for a caller's connection. */
        void closeStatements() {
            for (PreparedStatement ps : statements.values()) {
                try {
                    ps.close();
                } catch (SQLException ignored) {
                    // closing anyway
                }
            }
            statements.clear();
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
    private final SqliteBusyWait busyWait;
    /** Orders the waiting writers of all processes; absent for :memory: and the native wait. */
    private final SqliteWaitQueue waitQueue;
    private final ReentrantLock writeLock = new ReentrantLock(true);
    /** A turn in the queue kept for the next write of this process, under {@link #writeLock}. */
    private long heldTicket = NO_TICKET;
    private int writesThisTurn;
    private final Session writer;
    /** {@link #jsonEachFor} this library. */
    private final String batchJsonEach;
    private final ArrayBlockingQueue<Session> readers;
    private final List<Session> allReaders = new ArrayList<>();
    private volatile boolean closed;

    SqliteConnections(String jdbcUrl, String description, Optional<Path> file, int readerCount, Duration busyTimeout,
            SqliteBusyWait busyWait) {
        boolean memory = file.isEmpty();
        this.description = description;
        this.busyTimeout = busyTimeout;
        this.busyWait = busyWait;
        this.readers = new ArrayBlockingQueue<>(Math.max(1, readerCount));
        int nativeTimeoutMs = busyWait == SqliteBusyWait.NATIVE ? (int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()) : 0;
        long deadline = System.nanoTime() + busyTimeout.toNanos();
        try {
            this.writer = new Session(openWhileBusy(jdbcUrl, memory, false, nativeTimeoutMs, deadline));
            // The library's own version (sqlite3_libversion), before anything runs a statement of ours.
            String version = writer.connection.getMetaData().getDatabaseProductVersion();
            requireVersion(version);
            this.batchJsonEach = jsonEachFor(version);
            if (!memory) {
                for (int i = 0; i < readerCount; i++) {
                    Session reader = new Session(openWhileBusy(jdbcUrl, false, true, nativeTimeoutMs, deadline));
                    readers.add(reader);
                    allReaders.add(reader);
                }
            }
        } catch (SQLException e) {
            closeAll();
            throw new RunnelException("cannot open SQLite database " + description + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeAll();
            throw e;
        }
        try {
            this.waitQueue = busyWait == SqliteBusyWait.FAIR && !memory ? SqliteWaitQueue.open(file.get()) : null;
        } catch (RuntimeException e) {
            closeAll();
            throw e;
        }
    }

    /**
     * Opens a connection, trying again while the file is busy until {@code deadline}: another
     * process may hold the lock that setting up a connection takes, or be recovering the WAL after a
     * crash (SQLITE_BUSY_RECOVERY), as when several processes start on one file at once. The
     * writer's connection also checks the file's encoding.
     */
    private Connection openWhileBusy(String jdbcUrl, boolean memory, boolean readOnly, int busyTimeoutMs,
            long deadline) throws SQLException {
        while (true) {
            Connection c = null;
            try {
                c = open(jdbcUrl, memory, readOnly, busyTimeoutMs);
                if (!readOnly) {
                    requireUtf8(c, description);
                }
                return c;
            } catch (SQLException e) {
                closeQuietly(c);
                if (!isBusy(e) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                pause();
            } catch (RuntimeException e) {
                closeQuietly(c);
                throw e;
            }
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // it was not usable anyway
            }
        }
    }

    private static Connection open(String jdbcUrl, boolean memory, boolean readOnly, int busyTimeoutMs)
            throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(busyTimeoutMs);
        if (!memory && !readOnly) {
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        }
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        // Sets a new database's encoding; an existing one keeps its own, which requireUtf8 checks.
        config.setEncoding(SQLiteConfig.Encoding.UTF8);
        config.setCacheSize(-16_000); // 16 MB page cache per connection
        if (readOnly) {
            config.setReadOnly(true);
        }
        return config.createConnection(jdbcUrl);
    }

    /** The oldest SQLite library Runnel's statements run on: 3.38.0, the first with {@code ->>}. */
    static final int[] MIN_VERSION = {3, 38, 0};

    /** The first SQLite library with {@code jsonb_each}: 3.51.0. */
    static final int[] JSONB_EACH_VERSION = {3, 51, 0};

    /**
     * Refuses a database stored in UTF-16 (a file another program created so): claimed rows'
     * text is read as UTF-8 bytes ({@link SqliteRows#text}).
     */
    private static void requireUtf8(Connection connection, String description) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("PRAGMA encoding")) {
            String encoding = rs.next() ? rs.getString(1) : "";
            if (!encoding.equals("UTF-8")) {
                throw new RunnelException("SQLite database " + description + " is stored in " + encoding
                        + "; Runnel keeps its jobs in UTF-8 databases: give it another file");
            }
        }
    }

    /**
     * Throws unless {@code version} (as {@code sqlite_version()} gives it) is {@link #MIN_VERSION}
     * or later: an older library is refused when the driver opens, not at a statement that fails.
     */
    static void requireVersion(String version) {
        if (!atLeast(version, MIN_VERSION)) {
            throw new RunnelException("the SQLite library on the classpath is " + version + "; Runnel needs "
                    + MIN_VERSION[0] + "." + MIN_VERSION[1] + "." + MIN_VERSION[2]
                    + " or later (org.xerial:sqlite-jdbc " + MIN_VERSION[0] + "." + MIN_VERSION[1] + ".0 or later)");
        }
    }

    /** Whether {@code version}, dotted numbers as {@code sqlite_version()} gives it, is {@code min} or later. */
    static boolean atLeast(String version, int[] min) {
        String[] parts = version.split("\\.");
        for (int i = 0; i < min.length; i++) {
            int have = i < parts.length ? Integer.parseInt(parts[i]) : 0;
            if (have != min[i]) {
                return have > min[i];
            }
        }
        return true;
    }

    /**
     * The table-valued function that reads a JSON array of a batch's elements: {@code jsonb_each}
     * where the library has it, which hands each element over as binary JSON that {@code ->>}
     * reads in place; {@code json_each}, which hands it over as text to parse again, before.
     */
    static String jsonEachFor(String version) {
        return atLeast(version, JSONB_EACH_VERSION) ? "jsonb_each" : "json_each";
    }

    /** {@link #jsonEachFor} this driver's SQLite library. */
    String batchJsonEach() {
        return batchJsonEach;
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
            if (waitQueue == null) {
                long deadline = System.nanoTime() + busyTimeout.toNanos();
                while (true) {
                    try {
                        return attempt(work, transaction);
                    } catch (SQLException e) {
                        awaitRetry(e, deadline);
                    }
                }
            }
            return inTurn(work, transaction);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The fair wait: a write goes straight to the database unless others wait already; on
     * SQLITE_BUSY, or behind others, it takes a ticket and tries only once its turn has come.
     * With one process on the file the queue stays empty and costs two memory reads per write.
     */
    private <T> T inTurn(Work<T> work, boolean transaction) {
        long deadline = System.nanoTime() + busyTimeout.toNanos();
        long ticket = heldTicket != NO_TICKET ? heldTicket : waitQueue.busy() ? waitQueue.join() : NO_TICKET;
        heldTicket = NO_TICKET;
        boolean wrote = false;
        try {
            while (true) {
                if (ticket == NO_TICKET || waitQueue.turn(ticket)) {
                    try {
                        T result = attempt(work, transaction);
                        wrote = true;
                        return result;
                    } catch (SQLException e) {
                        failUnlessBusy(e, deadline);
                        if (ticket == NO_TICKET) {
                            ticket = waitQueue.join();
                        }
                    }
                } else {
                    failIfLate(null, deadline);
                }
                pause();
            }
        } finally {
            if (ticket != NO_TICKET) {
                if (wrote && writeLock.hasQueuedThreads() && ++writesThisTurn < MAX_WRITES_PER_TURN) {
                    heldTicket = ticket; // the next thread, already waiting for the writer, writes in this turn
                } else {
                    writesThisTurn = 0;
                    waitQueue.leave(ticket);
                }
            }
        }
    }

    private <T> T attempt(Work<T> work, boolean transaction) throws SQLException {
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
    }

    /** Whether reads have connections of their own: not for {@code :memory:}, whose reads take the writer's. */
    boolean hasReaders() {
        return !allReaders.isEmpty();
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
        failUnlessBusy(e, deadline);
        pause();
    }

    /** Throws unless {@code e} is SQLITE_BUSY with time left to wait (the native wait has none left). */
    private void failUnlessBusy(SQLException e, long deadline) {
        if (!isBusy(e)) {
            String message = "SQLite " + description + ": " + e.getMessage();
            throw dataRejected(e) ? new DataRejectedException(message, e) : new RunnelException(message, e);
        }
        if (busyWait == SqliteBusyWait.NATIVE) {
            throw new RunnelException("SQLite " + description + " stayed locked by another process for longer than "
                    + busyTimeout.toMillis() + " ms (native busy wait): " + e.getMessage(), e);
        }
        failIfLate(e, deadline);
    }

    private void failIfLate(SQLException cause, long deadline) {
        if (System.nanoTime() - deadline > 0) {
            throw new RunnelException("SQLite " + description + " stayed locked by another process for longer than "
                    + busyTimeout.toMillis() + " ms: database is locked", cause);
        }
    }

    private void pause() {
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

    private void closeAll() {
        if (writer != null) {
            writer.close();
        }
        allReaders.forEach(Session::close);
        if (waitQueue != null) {
            waitQueue.close();
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
            if (heldTicket != NO_TICKET) {
                waitQueue.leave(heldTicket);
                heldTicket = NO_TICKET;
            }
            closeAll();
        } finally {
            writeLock.unlock();
        }
    }
}
