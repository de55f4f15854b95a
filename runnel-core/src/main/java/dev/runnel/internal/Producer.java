package dev.runnel.internal;

import dev.runnel.JobRow;
import dev.runnel.QueueExecutor;
import dev.runnel.RunnelConnectException;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelRequestedParams;
import dev.runnel.driver.JobClaimParams;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches jobs for one queue into its free worker slots and runs each on a virtual thread, or on
 * the queue's pool of platform threads when it has one.
 *
 * <p>It claims as many jobs as it has free slots, in one statement. A batch that came back full
 * means more are waiting: it fetches again as soon as a slot frees. Otherwise it waits for an
 * insert signal or for the poll interval. Once two fetches in a row that signals made have found
 * nothing, a signal waits out the fetch cooldown since the last fetch; otherwise only
 * {@link #QUICK_COOLDOWN}.
 *
 * <p>Jobs shorter than a millisecond are claimed ahead of the free slots (see {@link AheadJobs}).
 */
public final class Producer implements Service {
    private static final Logger LOG = LoggerFactory.getLogger(Producer.class);
    private static final Duration MAX_ERROR_DELAY = Duration.ofSeconds(5);

    /** A producer's settings, validated by the client builder. */
    public record Config(String queue, int maxWorkers, Duration pollInterval, Duration cooldown, String clientId,
            boolean atMostOnce, boolean limited, QueueExecutor executor) {}

    /**
     * How often a producer that found nothing to claim asks whether its queue has a global limit
     * now, and how often one whose queue has a limit asks whether it still does. A queue given a
     * limit at runtime loses nothing meanwhile: the claim without a limit takes nothing from a
     * queue that has one.
     */
    private static final long LIMIT_CHECK_IDLE = TimeUnit.SECONDS.toNanos(1);
    private static final long LIMIT_CHECK_LIMITED = TimeUnit.SECONDS.toNanos(5);
    /**
     * Under a global limit, a claim that found the queue full is tried again this soon, as slots
     * free up when jobs anywhere finish and no one says so; up to {@link #LIMITED_RETRIES} times in
     * a row after a claim that got jobs, then at the poll interval, so that an idle limited queue
     * costs what any idle queue does.
     */
    private static final long LIMITED_RETRY = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * The cooldown after a fetch, unless the last two signalled fetches found nothing: 5 ms (or the
     * fetch cooldown, if shorter). The cooldown is there to coalesce signals that find nothing (every
     * client of a cluster is told of every insert, and all but one come away empty). Applied after
     * every fetch, it made jobs inserted one at a time more often than the cooldown (say 20/s, 50 ms
     * apart) wait up to the whole 100 ms: the latency bench ({@code runnel bench --latency})
     * measured a p50 of 58 ms on SQLite and 76 ms on Postgres; and an empty poll, once a second,
     * held back the next insert's fetch by up to 100 ms (the p99). A client whose last fetch found
     * work, or was a poll, fetches again on a signal after 5 ms; one that came away empty from two
     * signals in a row backs off the full cooldown. Not from one: on Postgres the inserting client
     * is woken twice for each insert, in process and by its own notification, and the second
     * finds nothing by design. The cost: up to one claim per single-job insert
     * (at most 200/s per producer) instead of at most 10/s; bulk inserts send one signal per batch,
     * and a backlog (full batches) refills without signals, as before.
     */
    static final long QUICK_COOLDOWN = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * After a full batch, when jobs are long ({@link #LONG_JOBS}), how long a free slot waits for
     * half the slots to be free before the producer fetches anyway: 1 ms (or the cooldown, if
     * shorter). Such jobs finish out of step, and waiting the cooldown (100 ms) left slots idle:
     * 1,000 jobs of 100 ms at 10 at once took 11.5 s (limit 10 s), 10.4 to 10.6 s with this. Not
     * 5 ms: at 100 slots a round of 100 ms jobs frees its slots over 10 to 20 ms, and 5 ms waits
     * made it 108 ms long. Short jobs wait as before: a 5 ms patience for them split the SQLite
     * burndown's claims into smaller ones (0.82 times its jobs/s).
     */
    static final long REFILL_PATIENCE = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * What makes jobs long for {@link #REFILL_PATIENCE}: 20 ms, on average or from the fetch to the
     * first slot it freed. Not the latter alone: a straggler of the batch before frees its slot just
     * after a fetch, which then waited the cooldown: 1,000 jobs of 100 ms at 10 went in 115 rounds.
     */
    static final long LONG_JOBS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int LIMITED_RETRIES = 100;

    private final Config config;
    private final Driver driver;
    private final JobRunner runner;
    private final Completer completer;
    private final Clock clock;
    private final ClaimClock claimClock;
    private final RuntimeListeners listeners;
    private final ThreadFactory jobThreads;
    /** Null when jobs run on virtual threads: their launch stays what it was, one null check more. */
    private final JobPool pool;
    /** The jobs claimed and not finished: those running and those claimed ahead, by id. */
    private final ConcurrentHashMap<Long, RunningJob> running = new ConcurrentHashMap<>();
    /** Jobs running: at most {@code maxWorkers}. */
    private final AtomicInteger active = new AtomicInteger();
    /** Jobs claimed and not finished: {@link #active} and those {@link #ahead}. */
    private final AtomicInteger held = new AtomicInteger();
    private final AheadJobs ahead;
    /** How many jobs the next claim may take ahead of free slots ({@link AheadJobs#limit}); set by the loop. */
    private volatile int aheadLimit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /**
     * The room (see {@link #room()}) a waiter is waiting for, or {@code Integer.MAX_VALUE} when
     * nobody waits. A finishing job signals only once the room reaches it: signalling on every
     * finish woke the producer's platform thread about once per job, a futex round trip each.
     */
    private volatile int wakeAtFree = Integer.MAX_VALUE;
    private volatile boolean stopping;
    private boolean insertSignal; // guarded by lock
    /** A claim whose reply was lost, whose jobs are to be found before anything else; only the loop touches it. */
    private JobClaimParams lostClaim;
    /** Whether the queue has a global limit, as last heard; only the loop touches it. */
    private boolean limited;
    private long limitCheckedAt;
    /** Limited claims in a row that got nothing; only the loop touches it. */
    private int limitedEmpty = LIMITED_RETRIES;
    private Thread loop;
    /** Told of each job start, so it may sleep while none runs; set before {@link #start()}. */
    private DeadlineWatcher watcher;

    public Producer(Config config, Driver driver, JobRunner runner, Completer completer, Clock clock,
            ClaimClock claimClock, RuntimeListeners listeners) {
        this.config = config;
        this.driver = driver;
        this.runner = runner;
        this.completer = completer;
        this.clock = clock;
        this.claimClock = claimClock;
        this.listeners = listeners;
        // Unnamed: a name per job is a string built per job, and a thread dump shows the job anyway.
        this.jobThreads = Thread.ofVirtual().factory();
        this.pool = config.executor() instanceof QueueExecutor.PlatformThreads p
                ? new JobPool(config.queue(), config.maxWorkers(), p.nice()) : null;
        this.limited = config.limited();
        this.ahead = new AheadJobs(config.maxWorkers());
        this.limitCheckedAt = System.nanoTime();
    }

    @Override
    public synchronized void start() {
        if (loop == null) {
            loop = Thread.ofPlatform().name("runnel-producer-" + config.queue()).daemon().start(this::run);
        }
    }

    /** The watcher of this producer's deadlines, told of each job start; called before {@link #start()}. */
    void watchedBy(DeadlineWatcher deadlines) {
        this.watcher = deadlines;
    }

    /** Jobs were inserted into this queue: fetch once the cooldown allows. */
    public void signalInsert() {
        lock.lock();
        try {
            insertSignal = true;
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The attempts in flight, for deadlines and cancellation. */
    public Collection<RunningJob> running() {
        return running.values();
    }

    /** Adds the attempts in flight to {@code into}, by job id. */
    void runningById(java.util.Map<Long, RunningJob> into) {
        into.putAll(running);
    }

    /** Cancels every attempt in flight, and every job claimed ahead, because the client is stopping. */
    public void cancelRunning(String reason) {
        // Those claimed ahead first: a running job cancelled first may end and start the next of
        // them before this reaches it.
        for (RunningJob job : ahead.waiting()) {
            job.cancel(RunningJob.Cause.STOP, reason);
        }
        for (RunningJob job : running.values()) {
            job.cancel(RunningJob.Cause.STOP, reason);
        }
    }

    /** Stops fetching; running jobs carry on. Idempotent. */
    @Override
    public void stop() {
        Thread t;
        synchronized (this) {
            stopping = true;
            t = loop;
        }
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits until no job is running or claimed ahead, or {@code deadlineNanos} (a
     * {@link System#nanoTime()}) passes.
     */
    public boolean awaitIdle(long deadlineNanos) throws InterruptedException {
        lock.lock();
        try {
            // The room is at least this once nothing is held, whatever the room ahead is then.
            wakeAtFree = config.maxWorkers();
            while (held.get() > 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            wakeAtFree = Integer.MAX_VALUE;
            lock.unlock();
        }
    }

    private void run() {
        boolean lastFull = false;
        int emptySignalled = 0;
        boolean signalled = false;
        long lastFetch = System.nanoTime() - config.cooldown().toNanos();
        long nextPoll = System.nanoTime();
        int errors = 0;
        while (!stopping) {
            try {
                signalled = false;
                if (lastFull) {
                    awaitRoom(refillThreshold(), jittered(config.cooldown()), lastFetch);
                } else {
                    awaitRoom(1, Long.MAX_VALUE, 0);
                    long cooldown = jittered(config.cooldown());
                    Due due = awaitFetchDue(lastFetch + (emptySignalled >= 2 ? cooldown : Math.min(QUICK_COOLDOWN, cooldown)), nextPoll);
                    if (due == Due.STOP) {
                        continue;
                    }
                    signalled = due == Due.SIGNAL;
                }
            } catch (InterruptedException e) {
                return;
            }
            aheadLimit = lostClaim != null || limited ? 0 : ahead.limit();
            int free = room();
            if (stopping || free <= 0) {
                continue;
            }
            long now = System.nanoTime();
            lastFetch = now;
            nextPoll = now + jittered(config.pollInterval());
            JobClaimParams claim = lostClaim != null ? lostClaim
                    : new JobClaimParams(config.queue(), free, claimClock.next(), config.clientId(), config.atMostOnce(),
                            limited);
            List<JobRow> jobs;
            try {
                jobs = lostClaim != null ? driver.jobClaimRecover(claim) : driver.jobClaim(claim);
                errors = 0;
                if (!listeners.isEmpty()) {
                    listeners.claimed(config.queue(), claim.max(), jobs.size(), System.nanoTime() - now);
                }
            } catch (RuntimeException e) {
                errors++;
                long delay = Math.min(MAX_ERROR_DELAY.toMillis(), 100L << Math.min(errors, 6));
                LOG.warn("{} for queue {} failed, retrying in {} ms: {}", lostClaim != null
                        ? "finding the jobs of a claim whose reply was lost" : "fetching jobs", config.queue(), delay,
                        e.toString());
                if (lostClaim == null && unclear(e)) {
                    // The claim may have committed with its reply lost: its jobs would be running
                    // under this live client, which would never know nor be rescued. Find them first.
                    lostClaim = claim;
                }
                lastFull = false;
                nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
                continue;
            }
            if (!jobs.isEmpty()) {
                emptySignalled = 0;
            } else if (signalled) {
                emptySignalled++;
            }
            if (lostClaim != null) {
                if (!jobs.isEmpty()) {
                    LOG.warn("found {} jobs of queue {} claimed by a claim whose reply was lost; working them now",
                            jobs.size(), config.queue());
                }
                lostClaim = null;
                lastFull = false;
            } else {
                // Under a global limit, slots free up as jobs anywhere finish: fetch again as this
                // client's own finish, rather than wait for the poll.
                lastFull = jobs.size() == free || (claim.limited() && !jobs.isEmpty());
                if (claim.limited()) {
                    limitedEmpty = jobs.isEmpty() ? limitedEmpty + 1 : 0;
                    if (limitedEmpty <= LIMITED_RETRIES) {
                        nextPoll = System.nanoTime() + LIMITED_RETRY;
                    }
                }
                checkLimit(jobs.isEmpty());
            }
            for (JobRow row : jobs) {
                launch(row);
            }
        }
    }

    /** Asks, now and then, whether the queue's limits have been set or lifted. */
    private void checkLimit(boolean claimedNothing) {
        long now = System.nanoTime();
        if (config.atMostOnce() || !(limited || claimedNothing)
                || now - limitCheckedAt < (limited ? LIMIT_CHECK_LIMITED : LIMIT_CHECK_IDLE)) {
            return;
        }
        limitCheckedAt = now;
        try {
            boolean was = limited;
            limited = driver.queueList().stream()
                    .anyMatch(q -> q.name().equals(config.queue()) && q.limited());
            if (limited != was) {
                LOG.info("queue {} {} a global, rate or per-key limit", config.queue(), limited ? "has" : "no longer has");
            }
        } catch (RuntimeException e) {
            LOG.debug("could not read queue {}'s limit: {}", config.queue(), e.toString());
        }
    }

    /**
     * Whether a failed claim may have been applied: not when the database could not be reached or
     * refused the statement, which then did nothing; an at-most-once claim's lost jobs are gone by
     * that mode's contract, so it has nothing to find either.
     */
    private boolean unclear(RuntimeException e) {
        return !config.atMostOnce() && !(e instanceof RunnelConnectException) && !(e instanceof DataRejectedException);
    }

    /**
     * After a full batch, more jobs are waiting: refetch once half the room is free, so that a
     * claim amortises its statement over many jobs instead of one per finished job.
     */
    private int refillThreshold() {
        return Math.max(1, (config.maxWorkers() + aheadLimit) / 2);
    }

    /** How many more jobs a claim may take now: the free slots, and the room ahead of them. */
    private int room() {
        return config.maxWorkers() + aheadLimit - held.get();
    }

    private void launch(JobRow row) {
        RunningJob job = new RunningJob(row);
        held.incrementAndGet();
        running.put(row.id(), job);
        if (takeSlot()) {
            start(job);
            return;
        }
        ahead.add(job);
        // A slot freed between the try above and the add found no job waiting: take it here.
        for (RunningJob next = slotForNextAhead(); next != null; next = slotForNextAhead()) {
            start(next);
        }
    }

    /** A free slot taken for the next job waiting ahead, and that job; null, holding no slot, if either is missing. */
    private RunningJob slotForNextAhead() {
        if (ahead.isEmpty() || !takeSlot()) {
            return null;
        }
        RunningJob next = ahead.poll();
        if (next == null) {
            active.decrementAndGet();
        }
        return next;
    }

    /** Takes a free slot, if there is one. */
    private boolean takeSlot() {
        int a;
        do {
            a = active.get();
            if (a >= config.maxWorkers()) {
                return false;
            }
        } while (!active.compareAndSet(a, a + 1));
        return true;
    }

    /** Runs {@code job} in the slot just taken for it, and then the jobs claimed ahead while there are any. */
    private void start(RunningJob job) {
        if (pool == null) {
            jobThreads.newThread(() -> work(job)).start();
        } else {
            pool.execute(() -> work(job));
        }
    }

    private void work(RunningJob first) {
        RunningJob job = first;
        while (job != null) {
            if (watcher != null) {
                watcher.jobStarted();
            }
            workOne(job);
            job = ahead.poll();
            if (job == null) {
                active.decrementAndGet();
                // A job added just after the poll, with every slot taken: its adder saw no free slot.
                job = slotForNextAhead();
            }
        }
    }

    private void workOne(RunningJob job) {
        JobRow row = job.row;
        job.started();
        long began = job.startNanos;
        try {
            Outcome outcome = runner.run(job);
            ahead.took(System.nanoTime() - began);
            if (config.atMostOnce()) {
                outcome = outcome.atMostOnce(clock.instant());
                if (outcome.needsNoWrite() && !completer.hasListeners()) {
                    return; // the claim removed it: nothing to write, nobody to tell
                }
            }
            completer.submit(outcome);
        } catch (RuntimeException | Error e) {
            // The runner never throws; a submit after the client stopped does. The job stays
            // running, and the rescuer takes it once this client is gone.
            LOG.error("the outcome of job {} of queue {} cannot be written: {}", row.id(), config.queue(), e.toString());
        } finally {
            if (pool != null) {
                // The thread lives on to run other jobs: no late cancel of this one may interrupt them.
                job.detach();
            }
            running.remove(row.id());
            held.decrementAndGet();
            if (room() >= wakeAtFree) {
                lock.lock();
                try {
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Ends the pool's threads, if it has one; after its jobs finished or were cancelled. */
    void releaseThreads() {
        if (pool != null) {
            pool.shutdown();
        }
    }

    /**
     * Waits until at least one slot is free, then until {@code wanted} are free or {@code patienceNanos}
     * have passed since the first one freed, whichever comes first; at most {@link #REFILL_PATIENCE}
     * when jobs take {@link #LONG_JOBS} or more on average, or the first took that long since the
     * fetch at {@code fetchedAt}.
     */
    private void awaitRoom(int wanted, long patienceNanos, long fetchedAt) throws InterruptedException {
        lock.lock();
        try {
            wakeAtFree = 1;
            while (!stopping && room() <= 0) {
                await(Long.MAX_VALUE);
            }
            if (patienceNanos == Long.MAX_VALUE) {
                return;
            }
            wakeAtFree = wanted;
            long now = System.nanoTime();
            if (ahead.meanNanos() >= LONG_JOBS || now - fetchedAt >= LONG_JOBS) {
                patienceNanos = Math.min(patienceNanos, REFILL_PATIENCE);
            }
            long until = now + patienceNanos;
            long left;
            while (!stopping && room() < wanted && (left = until - System.nanoTime()) > 0) {
                await(left);
            }
        } finally {
            wakeAtFree = Integer.MAX_VALUE;
            lock.unlock();
        }
    }

    /**
     * Waits under the lock for a signal, at most {@code nanos} ({@code Long.MAX_VALUE}: no limit); at
     * most {@link AheadJobs#WAIT_MAX} while jobs wait ahead at least once, then gives back the stale.
     */
    private void await(long nanos) throws InterruptedException {
        if (ahead.isEmpty() || config.atMostOnce()) {
            if (nanos == Long.MAX_VALUE) {
                changed.await();
            } else {
                changed.awaitNanos(nanos);
            }
            return;
        }
        changed.awaitNanos(Math.min(nanos, AheadJobs.WAIT_MAX));
        giveBackStale();
    }

    /**
     * Sends the jobs waiting ahead back to the table once they have waited too long
     * ({@link AheadJobs#takeStale}), available now with their attempt uncounted (a snooze of no
     * time); one whose cancel was asked for ends cancelled instead, unstarted, so that going back
     * loses no cancel.
     */
    private void giveBackStale() {
        List<RunningJob> back = ahead.takeStale();
        if (back.isEmpty()) {
            return;
        }
        aheadLimit = 0;
        Set<Long> cancelled = new HashSet<>();
        try {
            long[] ids = back.stream().mapToLong(j -> j.row.id()).toArray();
            for (long id : driver.jobCancelRequested(new JobCancelRequestedParams(ids))) {
                cancelled.add(id);
            }
        } catch (RuntimeException e) {
            LOG.debug("could not ask which jobs going back have a cancel requested: {}", e.toString());
        }
        Instant now = clock.instant();
        for (RunningJob job : back) {
            JobRow row = job.row;
            if (job.cause() == null && cancelled.contains(row.id())) {
                job.cancel(RunningJob.Cause.CANCEL, CancelWatcher.REASON);
            }
            Outcome outcome = job.cause() == null ? Outcome.snoozed(row, now, Duration.ZERO, Duration.ZERO)
                    : Outcome.unstarted(row, now, job.cause(), job.reason());
            running.remove(row.id());
            held.decrementAndGet();
            try {
                completer.submit(outcome);
            } catch (RuntimeException e) {
                // The client is stopping: the job stays running, and the rescuer takes it.
                LOG.warn("job {} of queue {} cannot be given back: {}", row.id(), config.queue(), e.toString());
            }
        }
    }

    /** What made a fetch due. */
    private enum Due { POLL, SIGNAL, STOP }

    /** Waits for the next fetch: an insert signal past {@code cooldownEnd}, or the poll. */
    private Due awaitFetchDue(long cooldownEnd, long nextPoll) throws InterruptedException {
        lock.lock();
        try {
            while (!stopping) {
                long now = System.nanoTime();
                if (now - nextPoll >= 0) {
                    insertSignal = false;
                    return Due.POLL;
                }
                if (insertSignal && now - cooldownEnd >= 0) {
                    insertSignal = false;
                    return Due.SIGNAL;
                }
                long until = insertSignal ? Math.min(cooldownEnd, nextPoll) : nextPoll;
                await(until - now);
            }
            return Due.STOP;
        } finally {
            lock.unlock();
        }
    }

    /** {@code d} plus up to 10% random jitter, in nanoseconds, so that clients do not fetch in step. */
    private static long jittered(Duration d) {
        long nanos = d.toNanos();
        return nanos + (nanos < 10 ? 0 : ThreadLocalRandom.current().nextLong(nanos / 10 + 1));
    }
}
