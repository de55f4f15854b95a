package dev.runnel.internal;

import dev.runnel.JobRow;
import dev.runnel.QueueExecutor;
import dev.runnel.QueueRow;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelRequestedParams;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Fetches jobs for one queue into its free worker slots, on a platform thread of its own: the loop
 * that joins a {@link FetchPacer} (when to claim), a {@link Claimer} (the claim itself), the
 * queue's {@link Slots} (how many) and a {@link JobLauncher} (running what was claimed).
 *
 * <p>The loop waits parked, and holds no lock: an insert signal sets a flag and unparks it, a
 * finishing job unparks it only once the room the loop waits for is there, and a stop sets a flag
 * and unparks it. So neither a finishing job nor the thread that delivers insert signals (on
 * Postgres, the listener shared by every queue of the client) ever waits on a producer, whatever
 * the producer is doing: the loop's own calls to the driver (claims, limit reads, giving back jobs
 * claimed ahead) block only the loop.
 */
public final class Producer implements Service {
    /** A producer's settings, validated by the client builder. */
    public record Config(String queue, int maxWorkers, Duration pollInterval, Duration safetyPollInterval,
            Duration cooldown, String clientId, boolean atMostOnce, boolean limited, QueueExecutor executor) {}

    /** What made a fetch due. */
    private enum Due { POLL, SIGNAL, STOP }

    private final Config config;
    private final Slots slots;
    private final Claimer claimer;
    private final JobLauncher launcher;
    private final RuntimeListeners listeners;
    private final FetchPacer pacer;
    private final BooleanSupplier listening;
    private volatile boolean insertSignal;
    private volatile boolean releaseSignal;
    private volatile boolean pollSoon;
    /** The client's safety poll named this queue: claim once, as a poll, when there is room. */
    private volatile boolean pollNow;
    private volatile boolean limitsChanged;
    private volatile boolean stopping;
    private volatile Thread loop;

    /**
     * @param queues the queues' settings, read now and then for the queue's limits ({@link SharedQueueList})
     * @param listening whether the client hears the driver's notifications now ({@link Driver#LISTENING})
     */
    Producer(Config config, Driver driver, Supplier<List<QueueRow>> queues, BooleanSupplier listening,
            JobRunner runner, Completer completer, Clock clock, ClaimClock claimClock,
            RuntimeListeners listeners) {
        this.config = config;
        this.listeners = listeners;
        this.slots = new Slots(config.maxWorkers());
        this.claimer = new Claimer(config.queue(), config.clientId(), config.atMostOnce(), config.limited(), claimClock,
                driver::jobClaim, driver::jobClaimRecover, queues);
        this.launcher = new JobLauncher(config.queue(), config.atMostOnce(), config.executor(), slots, runner,
                completer, clock, ids -> driver.jobCancelRequested(new JobCancelRequestedParams(ids)));
        this.listening = listening;
        this.pacer = new FetchPacer(config.cooldown(), config.pollInterval(), config.safetyPollInterval(),
                System.nanoTime());
    }

    @Override
    public synchronized void start() {
        if (loop == null && !stopping) {
            loop = Thread.ofPlatform().name("runnel-producer-" + config.queue()).daemon().start(this::run);
        }
    }

    /** The alarm told of each job start, for the watchers sleeping while none runs; before {@link #start()}. */
    void watchedBy(JobStartAlarm alarm) {
        launcher.watchedBy(alarm);
    }

    /** Jobs were inserted into this queue: fetch once the cooldown allows. Never waits: a flag and an unpark. */
    public void signalInsert() {
        insertSignal = true;
        unparkLoop();
    }

    private void unparkLoop() {
        Thread t = loop;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * This client stored an outcome that may have released jobs of this queue (a workflow's next task):
     * fetch at once, without the quick cooldown (5 ms a step of a chain). Never waits.
     */
    public void signalRelease() {
        releaseSignal = true;
        signalInsert();
    }

    /** The client's look found jobs due in this queue that no notification announced: claim as a poll. */
    void pollNow() {
        pollNow = true;
        unparkLoop();
    }

    /** The client stopped hearing notifications: poll within the poll interval; claim nothing now. */
    void pollSoon() {
        pollSoon = true;
        unparkLoop();
    }

    /** A queue's limits changed somewhere: read this queue's again before the next claim's mode is set. */
    void limitsChanged() {
        limitsChanged = true;
        unparkLoop();
    }

    /** The attempts in flight, for deadlines and cancellation. */
    public Collection<RunningJob> running() {
        return launcher.running();
    }

    /** Adds the attempts in flight to {@code into}, by job id. */
    void runningById(Map<Long, RunningJob> into) {
        launcher.runningById(into);
    }

    /** Cancels every attempt in flight, and every job claimed ahead, because the client is stopping. */
    public void cancelRunning(String reason) {
        launcher.cancelAll(reason);
    }

    /** Stops fetching; running jobs carry on. Idempotent. */
    @Override
    public void stop() {
        Thread t;
        synchronized (this) {
            stopping = true;
            t = loop;
        }
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits until no job runs or waits ahead, or {@code deadlineNanos} passes; after {@link #stop()}. */
    public boolean awaitIdle(long deadlineNanos) throws InterruptedException {
        return slots.awaitIdle(deadlineNanos);
    }

    /** Ends the pool's threads, if it has one; after its jobs finished or were cancelled. */
    void releaseThreads() {
        launcher.releaseThreads();
    }

    private void run() {
        while (!halted()) {
            boolean signalled = false;
            if (!awaitRoom(1, Long.MAX_VALUE)) {
                continue;
            }
            if (pacer.refilling()) {
                long now = System.nanoTime();
                int wanted = FetchPacer.refillWanted(config.maxWorkers() + slots.aheadLimit());
                awaitRoom(wanted, now + pacer.refillPatience(now, slots.ahead().meanNanos()));
            } else {
                Due due = awaitFetchDue();
                if (due == Due.STOP) {
                    continue;
                }
                signalled = due == Due.SIGNAL;
            }
            slots.aheadLimit(claimer.mayClaimAhead() ? slots.ahead().limit() : 0);
            int free = slots.room();
            if (halted() || free <= 0) {
                // No room: a signal stands until there is (a poll due stays due); else the signal of
                // jobs given back while every slot was busy was lost until the next poll.
                insertSignal |= signalled;
                continue;
            }
            claim(free, signalled);
        }
    }

    /** Claims up to {@code free} jobs and launches them. */
    private void claim(int free, boolean signalled) {
        pollNow = false;
        long now = System.nanoTime();
        // A limited queue polls at the poll interval: room under a limit frees with no notification.
        pacer.fetching(now, listening.getAsBoolean() && !claimer.limited());
        Claimer.Claimed claimed = claimer.claim(free);
        long after = System.nanoTime();
        if (claimed == null) {
            pacer.failed(after, claimer.backoffNanos());
            return;
        }
        if (!listeners.isEmpty()) {
            listeners.claimed(config.queue(), claimed.asked(), claimed.jobs().size(), after - now);
        }
        int got = claimed.jobs().size();
        if (claimed.recovery()) {
            pacer.recovered(got, signalled);
        } else {
            pacer.claimed(after, claimed.asked(), got, signalled, claimed.limited());
            if (pacer.limitCheckDue(after, claimer.limited(), got == 0)) {
                claimer.readLimit();
            }
        }
        for (JobRow row : claimed.jobs()) {
            launcher.launch(row);
        }
    }

    /** Waits for {@code wanted} room until {@code until} ({@code Long.MAX_VALUE}: no limit); false when stopping. */
    private boolean awaitRoom(int wanted, long until) {
        try {
            while (!halted() && !slots.roomOrWake(wanted)) {
                if (until != Long.MAX_VALUE && until - System.nanoTime() <= 0) {
                    break;
                }
                pause(until);
            }
        } finally {
            slots.noWaiter();
        }
        return !halted();
    }

    /** Whether the loop is to end: stopped, or its thread interrupted (a park would return at once). */
    private boolean halted() {
        return stopping || Thread.currentThread().isInterrupted();
    }

    /** Waits for the next fetch: an insert signal once the cooldown allows, or the poll. */
    private Due awaitFetchDue() {
        long signalAt = pacer.signalDueAt();
        while (!halted()) {
            if (releaseSignal) {
                releaseSignal = false;
                insertSignal = false;
                return Due.SIGNAL;
            }
            long now = System.nanoTime();
            if (limitsChanged) {
                limitsChanged = false;
                if (claimer.readLimit()) {
                    return Due.SIGNAL; // claimed under limits, or without, from now on: not a safety poll
                }
            }
            if (pollSoon) {
                pollSoon = false;
                pacer.pollWithin(now);
            }
            long pollAt = pacer.pollDueAt();
            if (pollNow || now - pollAt >= 0) {
                insertSignal = false;
                return Due.POLL;
            }
            boolean signal = insertSignal;
            if (signal && now - signalAt >= 0) {
                insertSignal = false;
                return Due.SIGNAL;
            }
            pause(signal && signalAt - pollAt < 0 ? signalAt : pollAt);
        }
        return Due.STOP;
    }

    /**
     * Parks until {@code until} or an unpark; with jobs ahead, {@link AheadJobs#WAIT_MAX} at most,
     * then gives back those waiting too long.
     */
    private void pause(long until) {
        boolean ahead = !config.atMostOnce() && !slots.ahead().isEmpty();
        long nanos = until == Long.MAX_VALUE ? Long.MAX_VALUE : until - System.nanoTime();
        if (ahead) {
            nanos = Math.min(nanos, AheadJobs.WAIT_MAX);
        }
        if (nanos == Long.MAX_VALUE) {
            LockSupport.park(this);
        } else if (nanos > 0) {
            LockSupport.parkNanos(this, nanos);
        }
        if (ahead) {
            launcher.giveBackStale();
        }
    }
}
