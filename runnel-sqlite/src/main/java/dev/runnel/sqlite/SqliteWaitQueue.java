package dev.runnel.sqlite;

import dev.runnel.RunnelException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A ticket queue, shared by every process on one database file, that makes writers waiting for
 * SQLite's write lock take it in order of arrival.
 *
 * <p>Why: with plain polling at a constant interval every waiter tries again each millisecond,
 * and when the lock is released whichever waiter happens to poll first wins: a writer that has
 * waited a second has no better chance than one that arrived a millisecond ago. Here a writer
 * that meets SQLITE_BUSY (or finds others already waiting) takes a ticket, and only the writer
 * whose ticket is being served polls the database; the others poll this queue, which costs no
 * database lock. Writers that use no queue (the sqlite3 shell, another program) still take the
 * lock when they can: the queue orders Runnel's writers among themselves.
 *
 * <p>The queue is a small file beside the database ({@code FILE-runnel-wait}) mapped into every
 * process, like SQLite's own {@code -shm} file: two counters (the next ticket to hand out, the
 * ticket being served) and one heartbeat slot per ticket, changed with atomic operations on the
 * shared memory. A waiter writes the current time into its slot each time it polls; a head of the
 * queue that left (its slot says so) is passed over at once, and one whose heartbeat has been
 * silent for {@link #STALE_MILLIS} (its process died) is passed over by the next waiter. A waiter
 * passed over while alive (a pause longer than that) keeps its place at the front and simply polls.
 *
 * <p>Not thread-safe: one process's writes reach it one at a time, under the driver's writer lock.
 */
final class SqliteWaitQueue implements AutoCloseable {
    /** Heartbeat silence after which the waiter at the head is taken for dead and passed over. */
    static final long STALE_MILLIS = 200;
    /** Tickets that can be outstanding at once; one per waiting process, so far more than enough. */
    private static final int SLOTS = 1024;
    private static final long NEXT = 0;
    private static final long SERVING = 64; // on its own cache line
    private static final long SLOT_BASE = 128;
    private static final long SIZE = SLOT_BASE + SLOTS * 8L;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Arena arena;
    private final MemorySegment memory;
    /** The head this process last saw while waiting, and since when (nanoTime) it saw it. */
    private long watchedHead = -1;
    private long watchedSince;

    private SqliteWaitQueue(Arena arena, MemorySegment memory) {
        this.arena = arena;
        this.memory = memory;
    }

    /** The queue file of the database at {@code database}. */
    static Path fileOf(Path database) {
        return database.resolveSibling(database.getFileName() + "-runnel-wait");
    }

    /** Opens, creating if needed, the queue of the database at {@code database}. */
    static SqliteWaitQueue open(Path database) {
        Path file = fileOf(database);
        Arena arena = Arena.ofShared();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            if (raf.length() < SIZE) {
                // Zeros: both counters 0, an empty queue. Two processes racing here both set the
                // same length, which leaves what the first may already have written in place.
                raf.setLength(SIZE);
            }
            return new SqliteWaitQueue(arena, raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, SIZE, arena));
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw new RunnelException("cannot open SQLite wait queue " + file + ": " + e.getMessage(), e);
        }
    }

    /** Whether writers of any process are waiting: a newcomer then queues behind them. */
    boolean busy() {
        return (long) LONG.getVolatile(memory, NEXT) != (long) LONG.getVolatile(memory, SERVING);
    }

    /** Takes the next ticket. */
    long join() {
        long ticket = (long) LONG.getAndAdd(memory, NEXT, 1L);
        beat(ticket);
        watchedHead = -1;
        return ticket;
    }

    /**
     * Whether the holder of {@code ticket} may try the database now: its ticket is served, or was
     * passed over. Otherwise it records that the holder is alive, and passes over a head that left
     * or whose heartbeat went silent.
     */
    boolean turn(long ticket) {
        beat(ticket);
        long head = (long) LONG.getVolatile(memory, SERVING);
        if (head >= ticket) {
            return true;
        }
        long slot = (long) LONG.getVolatile(memory, slot(head));
        if (slot == left(head)) {
            LONG.compareAndSet(memory, SERVING, head, head + 1);
            return false;
        }
        long now = System.nanoTime();
        if (head != watchedHead) {
            watchedHead = head;
            watchedSince = now;
        } else if (now - watchedSince > TimeUnit.MILLISECONDS.toNanos(STALE_MILLIS)
                && System.currentTimeMillis() - slot > STALE_MILLIS) {
            // Silent for the whole time this process watched it, and by its own last heartbeat.
            LONG.compareAndSet(memory, SERVING, head, head + 1);
        }
        return false;
    }

    /** Gives up {@code ticket}: after the write, or when its writer stops waiting. */
    void leave(long ticket) {
        while (true) {
            long head = (long) LONG.getVolatile(memory, SERVING);
            if (head > ticket) {
                return;
            }
            if (head == ticket) {
                if (LONG.compareAndSet(memory, SERVING, head, head + 1)) {
                    return;
                }
                continue;
            }
            // Still behind others: whoever reaches this ticket at the head passes it over at once.
            LONG.setVolatile(memory, slot(ticket), left(ticket));
            return;
        }
    }

    private void beat(long ticket) {
        LONG.setVolatile(memory, slot(ticket), System.currentTimeMillis());
    }

    private static long slot(long ticket) {
        return SLOT_BASE + Math.floorMod(ticket, SLOTS) * 8L;
    }

    /** The mark of a ticket whose writer left: negative, so never a heartbeat. */
    private static long left(long ticket) {
        return -ticket - 1;
    }

    @Override
    public void close() {
        arena.close();
    }
}
