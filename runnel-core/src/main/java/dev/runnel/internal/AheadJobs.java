package dev.runnel.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A producer's jobs claimed ahead of its free slots, and how many to claim so. While its jobs take
 * under a millisecond, a claim takes besides the free slots as many jobs as the slots work
 * through in about {@link #WORK}; they wait here, in claim order, and each starts on the thread of
 * the job before it as that one ends. On virtual threads every claimed job passes through here,
 * the ones with a slot free too, until a thread takes it (JobLauncher#launch). The producer adds;
 * finishing jobs, and threads as they begin, take.
 */
final class AheadJobs {
    /**
     * How much work, in the slots' time, is claimed ahead of the free slots: 1 ms. A job claimed
     * ahead is marked running (or, at most once, removed) at its claim and waits in memory for a
     * slot, about this long, while no other client can take it: a job that starts about 1 ms after
     * its claim is no loss to anyone. Jobs of a millisecond or more are not claimed ahead (not one
     * fits in a slot's millisecond). What short jobs gain is the claim's round trip: at 10 slots
     * each claim took at most 10 no-op jobs, and the claims, not the jobs, set the pace (the jobs-table
     * scenario's no-op rows, docs/benchmarks.md).
     */
    static final long WORK = TimeUnit.MILLISECONDS.toNanos(1);
    /** The most jobs claimed ahead, however short: one claim's write stays short for the other writers. */
    static final int MAX = 500;
    /**
     * How long a job claimed ahead may wait for a slot before it goes back to the table, at least
     * once, for any client to take: 50 ms, fifty times what it was claimed to wait. Jobs that were
     * short may turn long (a queue of tiny jobs gets a burst of slow ones): the mean learns it only
     * as they end, and meanwhile up to {@link #MAX} of them would wait here while other clients had
     * room. At most once they stay: their claim removed them, and they run here.
     */
    static final long WAIT_MAX = TimeUnit.MILLISECONDS.toNanos(50);

    private final int slots;
    private final ConcurrentLinkedQueue<RunningJob> queue = new ConcurrentLinkedQueue<>();
    /** The mean time a job took, weighting the latest most, in nanoseconds; -1 before one ended. */
    private volatile long meanNanos = -1;

    AheadJobs(int slots) {
        this.slots = slots;
    }

    /** A job of the queue took {@code nanos}: its share of the mean (one eighth). */
    void took(long nanos) {
        long mean = meanNanos;
        meanNanos = mean < 0 ? nanos : mean + (nanos - mean) / 8;
    }

    /** The jobs' mean time in nanoseconds; -1 before one ended. */
    long meanNanos() {
        return meanNanos;
    }

    /**
     * How many jobs to claim ahead of the free slots now: as many as the slots work through in
     * {@link #WORK} at the jobs' mean time, up to {@link #MAX}; so none when a job takes longer
     * than that, or none has ended yet.
     */
    int limit() {
        long mean = meanNanos;
        return mean < 0 ? 0 : (int) Math.min(MAX, slots * WORK / Math.max(1, mean));
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    void add(RunningJob job) {
        queue.add(job);
    }

    /** The next job in claim order, or null. */
    RunningJob poll() {
        return queue.poll();
    }

    /** The jobs waiting, for a stop to cancel. */
    Iterable<RunningJob> waiting() {
        return queue;
    }

    /**
     * Takes out every job waiting once the first has waited {@link #WAIT_MAX} (the rest of its
     * claim has waited as long), and counts jobs as taking that long until the mean says otherwise,
     * so that nothing more is claimed ahead meanwhile; else none.
     */
    List<RunningJob> takeStale() {
        RunningJob first = queue.peek();
        long waited = first == null ? 0 : System.nanoTime() - first.claimedNanos;
        if (waited < WAIT_MAX) {
            return List.of();
        }
        meanNanos = Math.max(meanNanos, waited);
        List<RunningJob> stale = new ArrayList<>();
        for (RunningJob job = queue.poll(); job != null; job = queue.poll()) {
            stale.add(job);
        }
        return stale;
    }
}
