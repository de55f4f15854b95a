package dev.runnel.internal;

import dev.runnel.JobCount;
import dev.runnel.JobLinks;
import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobDeleteManyParams;
import dev.runnel.driver.JobRetryManyParams;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * What {@link dev.runnel.Jobs} does with the driver: reads, counts, and cancels, retries and
 * deletes one job or a query's every match, with the reasons for what it refuses.
 */
public final class JobAdmin {
    private final Driver driver;
    private final Clock clock;
    private final Runnable checkCancels;
    private final JobSearch search;

    /** {@code checkCancels} tells this client's runtime, if started, to look for cancels at once. */
    public JobAdmin(Driver driver, Clock clock, Runnable checkCancels) {
        this.driver = driver;
        this.clock = clock;
        this.checkCancels = checkCancels;
        this.search = new JobSearch(driver);
    }

    public Optional<JobRow> get(long id) {
        return driver.jobGet(id);
    }

    public Optional<JobLinks> links(long id) {
        return driver.supportsLinks() ? driver.linkGet(id) : Optional.empty();
    }

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

    public List<JobRow> list(JobQuery query) {
        return driver.jobList(query);
    }

    public JobPage search(JobQuery query, Duration budget) {
        return search.search(query, budget);
    }

    /** Every state but completed exactly, completed perhaps estimated: quick enough for a dashboard. */
    public List<JobCount> counts() {
        return driver.jobCountByQueueAndState(JobCountParams.FAST);
    }

    public JobRow cancel(long id) {
        cancelMany(new long[] {id});
        return require(id);
    }

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

    public void delete(long id) {
        JobRow job = require(id);
        if (driver.jobDeleteMany(new JobDeleteManyParams(new long[] {id}, clock.instant())).length == 0) {
            throw new RunnelException("job " + id + " is " + job.state().dbName() + ": a running job cannot be"
                    + " deleted; cancel it, or wait for its outcome");
        }
    }

    public int cancel(JobQuery query) {
        return each(query, this::cancelMany);
    }

    public int retry(JobQuery query) {
        return each(query, ids -> driver.jobRetryMany(new JobRetryManyParams(ids, clock.instant())).length);
    }

    public int delete(JobQuery query) {
        return each(query, ids -> driver.jobDeleteMany(new JobDeleteManyParams(ids, clock.instant())).length);
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
