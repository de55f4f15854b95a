package dev.runnel.internal;

import dev.runnel.JobContext;
import dev.runnel.JobRow;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** One attempt in flight: the context a worker sees, and the handle the runtime cancels it by. */
public final class RunningJob implements JobContext, Completer.Handed {
    /**
     * Why an attempt was cancelled; decides how its outcome is recorded: a timeout is a failure
     * (retried), a stop sends the job back without using the attempt, a cancel requested from
     * anywhere ends it cancelled.
     */
    public enum Cause { TIMEOUT, STOP, CANCEL }

    final JobRow row;
    /** When the job was claimed ({@link System#nanoTime()}): a job claimed ahead waits from then. */
    final long claimedNanos = System.nanoTime();
    /** When the attempt started ({@link #started()}); its timeout and run time count from then. */
    volatile long startedNanos = claimedNanos;
    private volatile Thread thread;
    /** The attempt's timeout, or null when it has none. */
    private volatile Duration timeout;
    /** When the attempt was bound to its thread, in milliseconds since the epoch: its deadline counts from then. */
    private volatile long boundAtMillis;
    private volatile long deadlineNanos = Long.MAX_VALUE;
    private volatile Cause cause;
    private volatile String reason;
    /** The attempt's output as JSON, or null; volatile, as a worker may record it from a thread of its own. */
    private volatile String output;

    /** The producer's slots that hold this job; null outside a producer. */
    private final Slots slots;
    /** The attempt's outcome, once handed to the completer. */
    private Outcome outcome;
    /** Whether the job stays held in its slots until the completer takes its outcome. */
    private boolean heldUntilTaken;

    public RunningJob(JobRow row) {
        this(row, null);
    }

    RunningJob(JobRow row, Slots slots) {
        this.row = row;
        this.slots = slots;
    }

    /**
     * This attempt ended in {@code outcome}: what it hands to the completer; {@code heldUntilTaken}:
     * the completer frees the job's place in its slots on taking it (it is behind).
     */
    RunningJob ended(Outcome outcome, boolean heldUntilTaken) {
        this.outcome = outcome;
        this.heldUntilTaken = heldUntilTaken;
        return this;
    }

    @Override
    public Outcome outcome() {
        return outcome;
    }

    /** The completer took this attempt's outcome: a job held until then no longer is. */
    @Override
    public void taken() {
        if (heldUntilTaken) {
            slots.release();
        }
    }

    /** A job claimed ahead of a free slot got one: its attempt, and its timeout, run from now. */
    void started() {
        startedNanos = System.nanoTime();
    }

    /**
     * The attempt runs on {@code thread}, from {@code nowMillis} on the client's clock, with
     * {@code timeout} (null for none). Its deadline, as the worker sees it, is made only when asked
     * for: most workers never ask.
     */
    void bind(Thread thread, Duration timeout, long nowMillis) {
        this.timeout = timeout;
        this.boundAtMillis = nowMillis;
        this.deadlineNanos = timeout == null ? Long.MAX_VALUE : startedNanos + timeout.toNanos();
        this.thread = thread;
        if (cause != null) {
            thread.interrupt();
        }
    }

    /**
     * Cancels the attempt once: marks it and interrupts its thread. Synchronized with
     * {@link #detach()}, so that a pool thread that has moved on to another job is never interrupted
     * for this one.
     */
    synchronized void cancel(Cause cause, String reason) {
        if (this.cause != null) {
            return;
        }
        this.reason = reason;
        this.cause = cause;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    /**
     * The attempt is over and its thread may go on to other jobs: it no longer answers to this
     * attempt's cancel, and an interrupt meant for this attempt is cleared.
     */
    void detach() {
        synchronized (this) {
            thread = null;
        }
        Thread.interrupted();
    }

    /** The timeout this attempt was given, or null when it has none. */
    Duration timeout() {
        return timeout;
    }

    /** When the attempt's timeout runs out ({@link System#nanoTime()}), or {@link Long#MAX_VALUE} when it has none or is not bound yet. */
    long deadlineNanos() {
        return deadlineNanos;
    }

    Cause cause() {
        return cause;
    }

    String reason() {
        return reason;
    }

    @Override
    public Optional<String> cancellation() {
        return Optional.ofNullable(reason);
    }

    @Override
    public Optional<Instant> deadline() {
        Duration t = timeout;
        return t == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(boundAtMillis).plus(t));
    }

    @Override
    public void recordOutput(String json) {
        output = json;
    }

    /** The output recorded, as JSON, or null. */
    String output() {
        return output;
    }
}
