package dev.runnel.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A producer's worker slots: how many jobs run ({@link #active}, at most {@code maxWorkers}), how
 * many it holds (those running and those claimed ahead of a free slot, waiting in
 * {@link AheadJobs}), and the hand-over of a slot from a job that ends to the next one waiting.
 *
 * <p>No lock: the counters are atomics, and a slot changes hands by compare-and-set. The producer
 * adds jobs; finishing jobs, each on its own thread, release them (or, while the completer is
 * behind, the completer as it takes their outcomes: {@link RunningJob#taken}). Two races are
 * closed by a re-check on each side: a job that waits ahead just as the last running job finds
 * nobody waiting ({@link #admit}), and a slot that frees just as a job is added to wait
 * ({@link #next}). One thread at a time may wait for room ({@link #awaitRoom}); a release wakes
 * it only once the room it waits for is there, so that finishing jobs do not wake it once each.
 */
final class Slots {
    private final int maxWorkers;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    private final AheadJobs ahead;
    /** How many jobs a claim may take beyond the free slots now ({@link AheadJobs#limit}); set by the producer. */
    private volatile int aheadLimit;
    /** A release that leaves at most this many held wakes {@link #waiter}; -1 while nobody waits. */
    private volatile int wakeWhenHeldAtMost = -1;
    private volatile Thread waiter;

    Slots(int maxWorkers) {
        this.maxWorkers = maxWorkers;
        this.ahead = new AheadJobs(maxWorkers);
    }

    int maxWorkers() {
        return maxWorkers;
    }

    AheadJobs ahead() {
        return ahead;
    }

    /** The jobs running. */
    int active() {
        return active.get();
    }

    /** The jobs running or waiting ahead. */
    int held() {
        return held.get();
    }

    /** How many more jobs a claim may take now: the free slots, and the room ahead of them. */
    int room() {
        return maxWorkers + aheadLimit - held.get();
    }

    int aheadLimit() {
        return aheadLimit;
    }

    /** How many jobs claims may take beyond the free slots from now on; 0 to take no more than the slots. */
    void aheadLimit(int limit) {
        aheadLimit = limit;
    }

    /**
     * A claimed job is held from now on: true when it took a free slot and is to start now; false
     * when it waits ahead, and a slot that frees will take it ({@link #next}).
     */
    boolean admit(RunningJob job) {
        if (hold()) {
            return true;
        }
        ahead.add(job);
        return false;
    }

    /** A claimed job is held from now on, and waits ahead until a thread takes it with a slot ({@link #startWaiting}, {@link #next}). */
    void waitAhead(RunningJob job) {
        held.incrementAndGet();
        ahead.add(job);
    }

    /** Whether a job waits ahead with a slot free for it: {@link #startWaiting} would return one. */
    boolean startable() {
        return !ahead.isEmpty() && active.get() < maxWorkers;
    }

    /** The first step of {@link #admit}: one more job held; true when it took a free slot. */
    boolean hold() {
        held.incrementAndGet();
        return takeSlot();
    }

    /**
     * After an {@link #admit} that made a job wait: the next job waiting, with a free slot taken
     * for it, or null. A slot freed between the admit's try and its add found no job waiting; call
     * this until it returns null, starting each job it returns.
     */
    RunningJob startWaiting() {
        if (ahead.isEmpty() || !takeSlot()) {
            return null;
        }
        RunningJob next = ahead.poll();
        if (next == null) {
            active.decrementAndGet();
        }
        return next;
    }

    /**
     * The job on a slot ended: the next job waiting ahead, to run on the same slot, or null, the
     * slot freed. Call {@link #release} for the ended job first.
     */
    RunningJob next() {
        RunningJob job = ahead.poll();
        return job != null ? job : freeSlot();
    }

    /**
     * Frees a slot; and takes it back for a job added to wait after {@link #next} found none, whose
     * adder saw every slot taken. Null when there is none.
     */
    RunningJob freeSlot() {
        active.decrementAndGet();
        return startWaiting();
    }

    /**
     * A held job ended (its outcome handed to the completer, or taken by it) or went back to the
     * table: no longer held; wakes the waiter when the room it waits for is there.
     */
    void release() {
        int h = held.decrementAndGet();
        if (h <= wakeWhenHeldAtMost) {
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    /**
     * Whether {@code wanted} room is there; if not, the calling thread is registered to be woken
     * (unparked) by the release that makes it so. Call {@link #noWaiter} once done waiting.
     */
    boolean roomOrWake(int wanted) {
        return heldOrWake(maxWorkers + aheadLimit - wanted);
    }

    /** Whether nothing is held; if not, the calling thread is woken by the release of the last. */
    boolean idleOrWake() {
        return heldOrWake(0);
    }

    private boolean heldOrWake(int atMost) {
        if (held.get() <= atMost) {
            return true;
        }
        waiter = Thread.currentThread();
        wakeWhenHeldAtMost = atMost;
        // Read again after registering: a release in between read no threshold and woke nobody.
        return held.get() <= atMost;
    }

    /**
     * Waits until nothing is held, or {@code deadlineNanos} (a {@link System#nanoTime()}) passes:
     * false then. By one thread, which no other wait of this queue's uses meanwhile.
     */
    boolean awaitIdle(long deadlineNanos) throws InterruptedException {
        try {
            while (!idleOrWake()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            return true;
        } finally {
            noWaiter();
        }
    }

    /** The waiter is done waiting: releases wake nobody. */
    void noWaiter() {
        wakeWhenHeldAtMost = -1;
        waiter = null;
    }

    private boolean takeSlot() {
        int a;
        do {
            a = active.get();
            if (a >= maxWorkers) {
                return false;
            }
        } while (!active.compareAndSet(a, a + 1));
        return true;
    }
}
