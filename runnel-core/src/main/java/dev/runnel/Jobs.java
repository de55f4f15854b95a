package dev.runnel;

import dev.runnel.internal.JobAdmin;
import java.time.Duration;
import java.util.List;
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

    private final JobAdmin admin;

    Jobs(JobAdmin admin) {
        this.admin = admin;
    }

    /** The job with this id, if it exists. */
    public Optional<JobRow> get(long id) {
        return admin.get(id);
    }

    /**
     * What ties job {@code id} to others (its workflow and task, batch, sequence, the jobs it
     * waits for and those waiting for it), if it is tied to any.
     */
    public Optional<JobLinks> links(long id) {
        return admin.links(id);
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
        return admin.awaitFinal(id, timeout);
    }

    /**
     * A page of the jobs {@code query} matches, in its order: every match up to the page's limit,
     * however many ids that reads. A filter no index serves (a kind or args value without its
     * {@link SearchIndex}) reads every id from the cursor until the page is full, all of them for a
     * value no job has: seconds on a table of millions. Bulk changes and programs that need every
     * match use this; people searching use {@link #search(JobQuery)}.
     */
    public List<JobRow> list(JobQuery query) {
        return admin.list(query);
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
        return admin.search(query, budget);
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
        return admin.counts();
    }

    /**
     * Cancels job {@code id} and returns it as it is now: cancelled, or still running with its
     * cancel on its way to its client. Throws {@link NotFoundException} when there is no such
     * job; a job already final is returned as it is.
     */
    public JobRow cancel(long id) {
        return admin.cancel(id);
    }

    /**
     * Makes job {@code id} available now, to be run again, its attempts kept (one more allowed if
     * it had used them all). Refuses ({@link RunnelException}, with the reason) a running job
     * (cancel it first), and a unique job whose key another job has taken since it finished.
     */
    public JobRow retry(long id) {
        return admin.retry(id);
    }

    /** Deletes job {@code id}. Refuses a running job ({@link RunnelException}: cancel it first). */
    public void delete(long id) {
        admin.delete(id);
    }

    /**
     * Cancels every job {@code query}'s filters match (all its pages, whatever its cursor), a page
     * of {@link JobQuery#limit()} jobs per statement; returns how many it changed.
     */
    public int cancel(JobQuery query) {
        return admin.cancel(query);
    }

    /**
     * Retries every job {@code query} matches that is not running, nor unique with its key taken
     * by another job; returns how many.
     */
    public int retry(JobQuery query) {
        return admin.retry(query);
    }

    /** Deletes every job {@code query} matches that is not running; returns how many. */
    public int delete(JobQuery query) {
        return admin.delete(query);
    }
}
