package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobDeleteManyParams;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.internal.CancelWatcher;
import dev.runnel.internal.JobSearch;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Reading and operating on jobs, from any client (one that only inserts, too): list them a page
 * at a time, count them, and cancel, retry and delete one job or every job a query matches.
 * Handed out by {@link Runnel#jobs()}.
 *
 * <p>A cancelled job that was not running is final at once. One that is running is marked, and
 * the client running it, in whatever process, is told (on Postgres by notification; elsewhere it
 * finds out within {@link dev.runnel.internal.CancelWatcher#POLL}): the worker sees
 * {@link Job#isCancelled()} and is interrupted, and the job ends cancelled, even if the worker
 * then throws; only a worker that completes anyway completes it.
 */
public final class Jobs {
    /** How long {@link #search(JobQuery)} reads ids without an index before it returns what it found: 50 ms. */
    public static final Duration SEARCH_BUDGET = Duration.ofMillis(50);

    private final Driver driver;
    private final Clock clock;
    private final Runnable checkCancels;
    private final JobSearch search;

    Jobs(Driver driver, Clock clock, Runnable checkCancels) {
        this.driver = driver;
        this.clock = clock;
        this.checkCancels = checkCancels;
        this.search = new JobSearch(driver);
    }

    /** The job with this id, if it exists. */
    public Optional<JobRow> get(long id) {
        return driver.jobGet(id);
    }

    /**
     * Waits until job {@code id} is final (completed, cancelled or discarded) and returns it as it
     * ended; empty if it no longer exists (succeeded in an at-most-once queue, which leaves no row,
     * or deleted). It reads the job every few milliseconds (backing off to 100 ms), from any
     * client: meant for scripts, tests and examples, not for the hot path of an application.
     *
     * @throws TimeoutException if the job is not final within {@code timeout}
     */
    public Optional<JobRow> awaitFinal(long id, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pauseMillis = 2;
        while (true) {
            Optional<JobRow> job = driver.jobGet(id);
            if (job.isEmpty() || job.get().state().isFinal()) {
                return job;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new TimeoutException("job " + id + " is still " + job.get().state().name().toLowerCase(Locale.ROOT)
                        + " after " + timeout);
            }
            Thread.sleep(pauseMillis);
            pauseMillis = Math.min(100, pauseMillis * 2);
        }
    }

    /**
     * A page of the jobs {@code query} matches, in its order: every match up to the page's limit,
     * however many ids that reads. A filter no index serves (a kind or args value without its
     * {@link SearchIndex}) reads every id from the cursor until the page is full, all of them for a
     * value no job has: seconds on a table of millions. Bulk changes and programs that need every
     * match use this; people searching use {@link #search(JobQuery)}.
     */
    public List<JobRow> list(JobQuery query) {
        return driver.jobList(query);
    }

    /**
     * A page of {@code query}'s matches for a person waiting on it (the CLI and the dashboard use
     * this): as {@link #list} where an index serves the filters; otherwise it reads the ids in
     * windows from the cursor and returns after about {@link #SEARCH_BUDGET} with what
     * it found, a {@link JobPage#partial() partial} page, and {@link JobPage#more()} goes on from
     * the last id read.
     */
    public JobPage search(JobQuery query) {
        return search(query, SEARCH_BUDGET);
    }

    /** {@link #search(JobQuery)} with its own time budget (zero: one window of ids, then return). */
    public JobPage search(JobQuery query, Duration budget) {
        return search.search(query, budget);
    }

    /**
     * How many jobs each queue has in each state, quickly enough for a dashboard's every refresh,
     * by queue then state. On Postgres every state but completed is counted exactly (each through
     * an index that holds only those jobs); completed jobs, most of a busy table, are counted
     * exactly while the table is small and otherwise estimated from a sample of its pages, such
     * counts marked {@link JobCount#exact()} false. SQLite counts everything exactly.
     * {@link Runnel#jobCounts()} counts every job exactly, reading the whole table.
     */
    public List<JobCount> counts() {
        return driver.jobCountByQueueAndState(JobCountParams.FAST);
    }

    /**
     * Cancels job {@code id} and returns it as it is now: cancelled, or still running with its
     * cancel on its way to its client. Throws {@link NotFoundException} when there is no such
     * job; a job already final is returned as it is.
     */
    public JobRow cancel(long id) {
        cancelMany(new long[] {id});
        return require(id);
    }

    /**
     * Makes job {@code id} available now, to be run again, its attempts kept (one more allowed if
     * it had used them all). Refuses ({@link RunnelException}, with the reason) a running job
     * (cancel it first), and a unique job whose key another job has taken since it finished.
     */
    public JobRow retry(long id) {
        require(id);
        if (driver.jobRetryMany(new JobRetryManyParams(new long[] {id}, clock.instant())).length == 0) {
            JobRow job = require(id);
            if (job.state() == JobState.RUNNING) {
                throw new RunnelException("job " + id + " is running: a running job cannot be retried; cancel it,"
                        + " or wait for its outcome");
            }
            Optional<Long> holder = driver.jobUniqueHolder(id);
            if (holder.isPresent()) {
                throw new RunnelException("job " + id + " is " + job.state().dbName() + " and unique, and job "
                        + holder.get() + " holds its unique key now: retrying it would make a duplicate; delete or"
                        + " cancel job " + holder.get() + " first, or insert anew");
            }
            // Neither: it changed between the read and the write (it was claimed, say); say what it is now.
            throw new RunnelException("job " + id + " is " + job.state().dbName() + " and was not retried; try again");
        }
        return require(id);
    }

    /** Deletes job {@code id}. Refuses a running job ({@link RunnelException}: cancel it first). */
    public void delete(long id) {
        JobRow job = require(id);
        if (driver.jobDeleteMany(new JobDeleteManyParams(new long[] {id})).length == 0) {
            throw new RunnelException("job " + id + " is " + job.state().dbName() + ": a running job cannot be"
                    + " deleted; cancel it, or wait for its outcome");
        }
    }

    /**
     * Cancels every job {@code query}'s filters match (all its pages, whatever its cursor), a page
     * of {@link JobQuery#limit()} jobs per statement; returns how many it changed.
     */
    public int cancel(JobQuery query) {
        return each(query, this::cancelMany);
    }

    /**
     * Retries every job {@code query} matches that is not running, nor unique with its key taken
     * by another job; returns how many.
     */
    public int retry(JobQuery query) {
        return each(query, ids -> driver.jobRetryMany(new JobRetryManyParams(ids, clock.instant())).length);
    }

    /** Deletes every job {@code query} matches that is not running; returns how many. */
    public int delete(JobQuery query) {
        return each(query, ids -> driver.jobDeleteMany(new JobDeleteManyParams(ids)).length);
    }

    private int cancelMany(long[] ids) {
        int changed = driver.jobCancelMany(new JobCancelParams(ids, clock.instant(), CancelWatcher.REASON)).length;
        checkCancels.run();
        return changed;
    }

    @FunctionalInterface
    private interface Batch {
        int apply(long[] ids);
    }

    /**
     * Applies {@code batch} to each page of {@code query}'s matches, from the first: a job changed
     * so that it no longer matches is behind the cursor by then, so nothing is met twice.
     */
    private int each(JobQuery query, Batch batch) {
        int total = 0;
        JobQuery page = query.afterId(0);
        while (true) {
            List<JobRow> rows = driver.jobList(page);
            if (rows.isEmpty()) {
                return total;
            }
            total += batch.apply(rows.stream().mapToLong(JobRow::id).toArray());
            if (rows.size() < page.limit()) {
                return total;
            }
            page = page.nextPage(rows);
        }
    }

    private JobRow require(long id) {
        return driver.jobGet(id).orElseThrow(() -> new NotFoundException("no job " + id
                + " (never inserted, deleted after its retention, or succeeded in an at-most-once queue)"));
    }
}
