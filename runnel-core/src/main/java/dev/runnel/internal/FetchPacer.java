package dev.runnel.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;

/**
 * When a producer claims next, from what its last claims found. It reads no clock and holds no
 * lock: the producer's loop passes the time ({@link System#nanoTime()}) in, and is its only user.
 *
 * <p>The rules:
 * <ul>
 * <li>A claim that came back full means more jobs wait: the next claim is made once half the room
 *     is free ({@link #refillWanted}), waiting at most the cooldown for that after the first slot
 *     frees, or {@link #REFILL_PATIENCE} when jobs are long ({@link #LONG_JOBS}).
 * <li>Otherwise the producer waits for an insert signal or the poll. A signal starts a claim
 *     {@link #QUICK_COOLDOWN} after the last one, or the whole cooldown once two claims in a row
 *     that signals started found nothing.
 * <li>A claim under a global limit that found the queue full is tried again {@link #LIMITED_RETRY}
 *     later, up to {@link #LIMITED_RETRIES} times in a row, then at the poll interval.
 * <li>The queue's limits are read again now and then ({@link #LIMIT_CHECK_IDLE},
 *     {@link #LIMIT_CHECK_LIMITED}).
 * <li>The cooldown and the poll interval carry up to 10% of random jitter, so that clients do not
 *     claim in step.
 * </ul>
 */
final class FetchPacer {
    /**
     * The cooldown after a fetch, unless the last two signalled fetches found nothing: 5 ms (or the
     * fetch cooldown, if shorter). The cooldown is there to coalesce signals that find nothing (every
     * client of a cluster is told of every insert, and all but one come away empty). Applied after
     * every fetch, it made jobs inserted one at a time more often than the cooldown (say 20/s, 50 ms
     * apart) wait up to the whole 100 ms: the latency bench ({@code runnel bench --latency})
     * measured a p50 of 58 ms on SQLite and 76 ms on Postgres; and an empty poll, once a second,
     * held back the next insert's fetch by up to 100 ms (the p99). Not after one empty signalled
     * fetch: on Postgres the inserting client is woken twice for each insert, in process and by its
     * own notification, and the second finds nothing by design. The cost: up to one claim per
     * single-job insert (at most 200/s per producer) instead of at most 10/s; bulk inserts send one
     * signal per batch, and a backlog (full batches) refills without signals.
     */
    static final long QUICK_COOLDOWN = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * After a full batch, when jobs are long ({@link #LONG_JOBS}), how long a free slot waits for
     * half the slots to be free before the producer fetches anyway: 1 ms (or the cooldown, if
     * shorter). Such jobs finish out of step, and waiting the cooldown (100 ms) left slots idle:
     * 1,000 jobs of 100 ms at 10 at once took 11.5 s (limit 10 s), 10.4 to 10.6 s with this. Not
     * 5 ms: at 100 slots a round of 100 ms jobs frees its slots over 10 to 20 ms, and 5 ms waits
     * made it 108 ms long. Short jobs wait the cooldown: a 5 ms patience for them split the SQLite
     * burndown's claims into smaller ones (0.82 times its jobs/s).
     */
    static final long REFILL_PATIENCE = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * What makes jobs long for {@link #REFILL_PATIENCE}: 20 ms, on average or from the fetch to the
     * first slot it freed. Not the latter alone: a straggler of the batch before frees its slot just
     * after a fetch, which then waited the cooldown: 1,000 jobs of 100 ms at 10 went in 115 rounds.
     */
    static final long LONG_JOBS = TimeUnit.MILLISECONDS.toNanos(20);
    /**
     * Under a global limit, a claim that found the queue full is tried again this soon, as slots
     * free up when jobs anywhere finish and no one says so.
     */
    static final long LIMITED_RETRY = TimeUnit.MILLISECONDS.toNanos(10);
    /** Quick retries of a limited claim in a row after one that got jobs; then the poll, as an idle queue. */
    static final int LIMITED_RETRIES = 100;
    /**
     * How often a producer that found nothing to claim asks whether its queue has a limit now, and
     * how often one whose queue has a limit asks whether it still does. A queue given a limit at
     * runtime loses nothing meanwhile: the claim without a limit takes nothing from a queue that
     * has one.
     */
    static final long LIMIT_CHECK_IDLE = TimeUnit.SECONDS.toNanos(1);
    static final long LIMIT_CHECK_LIMITED = TimeUnit.SECONDS.toNanos(5);

    /**
     * The safety poll interval of a producer whose client polls for it while it listens
     * ({@link DueQueues}): about a century, so that it never comes due; times are compared by their
     * difference, as {@link System#nanoTime()} values must be.
     */
    static final Duration NEVER = Duration.ofDays(36_500);

    private final long cooldown;
    private final long pollInterval;
    private final long safetyPollInterval;
    private final LongUnaryOperator jitter;
    private boolean lastFull;
    private int emptySignalled;
    private long lastFetch;
    /** When the claim the signal cooldown counts from began: the last one but an empty poll. */
    private long signalBase;
    /** The signal base before the claim in flight, restored if that claim is an empty poll. */
    private long signalBaseBefore;
    private long nextPoll;
    private int limitedEmpty = LIMITED_RETRIES;
    private long limitCheckedAt;

    /**
     * A pacer whose first claim is due at {@code now}, with {@link #jittered} jitter; it polls every
     * {@code pollInterval}, or every {@code safetyPollInterval} (if longer) while the client hears
     * notifications.
     */
    FetchPacer(Duration cooldown, Duration pollInterval, Duration safetyPollInterval, long now) {
        this(cooldown, pollInterval, safetyPollInterval, now, FetchPacer::jittered);
    }

    /** A pacer with {@code jitter} applied to every cooldown and poll interval (tests pass their own). */
    FetchPacer(Duration cooldown, Duration pollInterval, Duration safetyPollInterval, long now,
            LongUnaryOperator jitter) {
        this.cooldown = cooldown.toNanos();
        this.pollInterval = pollInterval.toNanos();
        this.safetyPollInterval = Math.max(this.pollInterval, safetyPollInterval.toNanos());
        this.jitter = jitter;
        this.lastFetch = now - this.cooldown;
        this.signalBase = lastFetch;
        this.nextPoll = now;
        this.limitCheckedAt = now;
    }

    /** Whether the last claim came back full: the next one waits for room, not for a signal or the poll. */
    boolean refilling() {
        return lastFull;
    }

    /** After a full batch, the room to wait for before claiming again: half of {@code capacity}. */
    static int refillWanted(int capacity) {
        return Math.max(1, capacity / 2);
    }

    /**
     * After a full batch, how long a slot that freed at {@code now} waits for the rest of
     * {@link #refillWanted}: the cooldown, or at most {@link #REFILL_PATIENCE} when jobs take
     * {@link #LONG_JOBS} or more on average ({@code meanJobNanos}) or this slot freed that long
     * after the claim.
     */
    long refillPatience(long now, long meanJobNanos) {
        long patience = jitter.applyAsLong(cooldown);
        if (meanJobNanos >= LONG_JOBS || now - lastFetch >= LONG_JOBS) {
            patience = Math.min(patience, REFILL_PATIENCE);
        }
        return patience;
    }

    /**
     * When an insert signal may start the next claim: {@link #QUICK_COOLDOWN} or the cooldown after
     * the last claim that a signal started or that found jobs. Not after an empty poll: it says
     * nothing of the signals the cooldown coalesces, and a signal just after it is most likely a
     * job inserted since, which waited up to the quick cooldown for nothing (once a second per
     * queue, a job in a few hundred).
     */
    long signalDueAt() {
        long c = jitter.applyAsLong(cooldown);
        return signalBase + (emptySignalled >= 2 ? c : Math.min(QUICK_COOLDOWN, c));
    }

    /** When the next claim is due without a signal. */
    long pollDueAt() {
        return nextPoll;
    }

    /** The client stopped hearing notifications at {@code now}: the next poll is due within the poll interval. */
    void pollWithin(long now) {
        long poll = now + jitter.applyAsLong(pollInterval);
        if (poll - nextPoll < 0) {
            nextPoll = poll;
        }
    }

    /**
     * A claim starts at {@code now}; {@code listening}: the client hears notifications of every job
     * made available, so the next poll is only a safety net, due after the safety poll interval.
     */
    void fetching(long now, boolean listening) {
        lastFetch = now;
        signalBaseBefore = signalBase;
        signalBase = now;
        nextPoll = now + jitter.applyAsLong(listening ? safetyPollInterval : pollInterval);
    }

    /**
     * The claim begun at {@link #fetching} returned {@code got} jobs of the {@code asked};
     * {@code signalled}: an insert signal started it; {@code limited}: it was made under the
     * queue's limits.
     */
    void claimed(long now, int asked, int got, boolean signalled, boolean limited) {
        countEmpty(got, signalled);
        if (!signalled && got == 0) {
            signalBase = signalBaseBefore;
        }
        // Under a global limit, slots free up as jobs anywhere finish: claim again as this
        // client's own finish, rather than wait for the poll.
        lastFull = got == asked || (limited && got > 0);
        if (limited) {
            limitedEmpty = got == 0 ? limitedEmpty + 1 : 0;
            if (limitedEmpty <= LIMITED_RETRIES) {
                nextPoll = now + LIMITED_RETRY;
            }
        }
    }

    /** The claim found {@code got} jobs of a claim whose reply was lost: the next one waits as after a partial batch. */
    void recovered(int got, boolean signalled) {
        countEmpty(got, signalled);
        lastFull = false;
    }

    /** The claim failed: the next is due in {@code retryInNanos}. */
    void failed(long now, long retryInNanos) {
        lastFull = false;
        nextPoll = now + retryInNanos;
    }

    /**
     * Whether to read the queue's limits again now, and if so marks them read: while the queue is
     * {@code limited}, every {@link #LIMIT_CHECK_LIMITED}; otherwise after a claim that found nothing,
     * every {@link #LIMIT_CHECK_IDLE}.
     */
    boolean limitCheckDue(long now, boolean limited, boolean claimedNothing) {
        if (!(limited || claimedNothing) || now - limitCheckedAt < (limited ? LIMIT_CHECK_LIMITED : LIMIT_CHECK_IDLE)) {
            return false;
        }
        limitCheckedAt = now;
        return true;
    }

    private void countEmpty(int got, boolean signalled) {
        if (got > 0) {
            emptySignalled = 0;
        } else if (signalled) {
            emptySignalled++;
        }
    }

    /** {@code nanos} plus up to 10% random jitter. */
    static long jittered(long nanos) {
        return nanos + (nanos < 10 ? 0 : ThreadLocalRandom.current().nextLong(nanos / 10 + 1));
    }
}
