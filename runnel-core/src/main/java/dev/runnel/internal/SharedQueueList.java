package dev.runnel.internal;

import dev.runnel.QueueRow;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One client's reading of its queues' settings, shared by all its producers. Each producer asks
 * whether its queue has a limit now and then ({@link FetchPacer#LIMIT_CHECK_IDLE} while idle): read
 * by each producer on its own, a client of 50 idle queues listed every queue 50 times a second. A
 * reading younger than {@code maxAgeNanos} is handed out again instead, so the client reads at
 * most about once per that interval, and a limit set at runtime is seen at most that much later.
 *
 * <p>No lock: a producer that finds the reading stale while another is reading a new one takes
 * the stale one rather than wait (it is at most twice the age a reading may have), and only a
 * producer with no reading at all reads on its own.
 */
final class SharedQueueList implements Supplier<List<QueueRow>> {
    private record Reading(long atNanos, List<QueueRow> rows) {}

    private final Supplier<List<QueueRow>> read;
    private final long maxAgeNanos;
    private final LongSupplier nanoTime;
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile Reading last;

    SharedQueueList(Supplier<List<QueueRow>> read, long maxAgeNanos) {
        this(read, maxAgeNanos, System::nanoTime);
    }

    SharedQueueList(Supplier<List<QueueRow>> read, long maxAgeNanos, LongSupplier nanoTime) {
        this.read = read;
        this.maxAgeNanos = maxAgeNanos;
        this.nanoTime = nanoTime;
    }

    /** The queues' settings changed: the next {@link #get()} reads them. */
    void invalidate() {
        last = null;
    }

    /** The queues' settings, at most {@code maxAgeNanos} old unless another producer is reading them; throws as the read does. */
    @Override
    public List<QueueRow> get() {
        Reading r = last;
        if (r != null && nanoTime.getAsLong() - r.atNanos() < maxAgeNanos) {
            return r.rows();
        }
        boolean mine = reading.compareAndSet(false, true);
        if (!mine && r != null) {
            return r.rows();
        }
        try {
            long at = nanoTime.getAsLong();
            List<QueueRow> rows = read.get();
            last = new Reading(at, rows);
            return rows;
        } finally {
            if (mine) {
                reading.set(false);
            }
        }
    }
}
