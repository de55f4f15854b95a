package dev.runnel.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * Cancels attempts that run past their deadline. One sweep over the running jobs costs less than a
 * timer per job at tens of thousands of jobs a second, and the watcher sweeps only when a deadline
 * falls due: it sleeps until the earliest deadline among the running attempts (but at least
 * {@link #SWEEP} after its last sweep), and an attempt given a deadline that this sleep would miss
 * by more than {@link #SWEEP} wakes it. Most jobs end long before their timeout (a minute by
 * default), so a job's start wakes nothing: a watcher woken by job starts would be one more thread
 * to schedule per job for a client whose jobs come one at a time, taking a core from the job and
 * its claim.
 */
public final class DeadlineWatcher extends Ticker {
    /** The least time between two sweeps; a timeout fires at most this late. */
    public static final Duration SWEEP = Duration.ofMillis(20);

    /**
     * How long the watchers sleep while nothing is due: the deadline watcher while no running
     * attempt has a deadline, the cancel watcher while no job runs. Sweeping every 20 ms with
     * nothing to watch cost an idle client 0.5% of a core; waking once a second, each watcher of
     * 20 idle clients still cost 0.17% of a core (the threads' run time in /proc's schedstat).
     */
    static final Duration IDLE_WAIT = Duration.ofSeconds(30);

    /** No deadline: an attempt without a timeout, or no running attempt with one. */
    private static final long NONE = Long.MAX_VALUE;
    private static final long SWEEP_NANOS = SWEEP.toNanos();

    /** Each producer's attempts in flight. */
    private final List<Supplier<Collection<RunningJob>>> running;
    /** When the next sweep is due ({@link System#nanoTime()}), or {@link #NONE} while nothing is due. */
    private volatile long nextSweepNanos = NONE;

    /** Watches the attempts in flight that {@code running} give (one per producer), read at each sweep. */
    DeadlineWatcher(List<Supplier<Collection<RunningJob>>> running) {
        super("deadlines", SWEEP);
        this.running = List.copyOf(running);
    }

    /**
     * {@code job} was given its deadline: wakes the watcher if its next sweep would come more than
     * {@link #SWEEP} after it. Otherwise one volatile read.
     */
    void deadlineSet(RunningJob job) {
        long deadline = job.deadlineNanos();
        if (deadline == NONE) {
            return;
        }
        long next = nextSweepNanos;
        if (next == NONE || deadline + SWEEP_NANOS - next < 0) {
            wakeUp();
        }
    }

    @Override
    protected long waitNanos() {
        long next = nextSweepNanos;
        return next == NONE ? IDLE_WAIT.toNanos() : next - System.nanoTime();
    }

    @Override
    protected boolean tick() {
        long now = System.nanoTime();
        long next = notBefore(sweep(now), now + SWEEP_NANOS);
        nextSweepNanos = next;
        // An attempt given its deadline during the sweep, and not seen by it, read the time the
        // watcher woke for and did not wake it: look again now that the new time is published
        // (an attempt given its deadline from here on reads that time).
        long again = notBefore(sweep(System.nanoTime()), now + SWEEP_NANOS);
        if (again != NONE && (next == NONE || again - next < 0)) {
            nextSweepNanos = again;
        }
        return false;
    }

    /** Cancels the attempts past their deadline; returns the earliest deadline of the others, or {@link #NONE}. */
    private long sweep(long now) {
        long earliest = NONE;
        for (Supplier<Collection<RunningJob>> jobs : running) {
            for (RunningJob job : jobs.get()) {
                long deadline = job.deadlineNanos();
                if (deadline == NONE) {
                    continue;
                }
                if (now - deadline > 0) {
                    job.cancel(RunningJob.Cause.TIMEOUT, "job timed out after " + job.timeout().toMillis() + " ms");
                } else if (earliest == NONE || deadline - earliest < 0) {
                    earliest = deadline;
                }
            }
        }
        return earliest;
    }

    /** {@code at}, or {@code floor} if that is later; {@link #NONE} stays so. */
    private static long notBefore(long at, long floor) {
        return at == NONE || at - floor >= 0 ? at : floor;
    }
}
