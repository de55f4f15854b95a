package dev.runnel.internal;

import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.SearchIndex;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobListScan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Searches for people (the CLI, the dashboard): a listing whose filters no index serves reads the
 * ids in windows, from the cursor onwards, and stops once its page is full, its ids are all read,
 * or its time budget is spent, so that a search for a value few or no jobs have answers within the
 * budget on a table of millions instead of walking all of it; the page it returns says where to go
 * on ({@link JobPage#more()}). The first window is {@value #FIRST_WINDOW} ids; each after it is
 * sized from the rate the search has read at so far to fit the budget left, at most four times the
 * one before and {@value #MAX_WINDOW} ids.
 *
 * <p>Which filters need windows: a kind or an args value without its {@link SearchIndex} (each
 * otherwise walks the ids from the cursor until the page is full, all of them for a value no job
 * has), and a queue when the states asked for include the two that most jobs are in (completed,
 * available), which Postgres lists by walking the ids. Any other listing (by state, tag, id or
 * creation time) reads through an index or a narrowed id range and is read whole.
 */
public final class JobSearch {
    /** The ids the first window reads: {@value}. */
    static final long FIRST_WINDOW = 4_096;
    /** The fewest ids a window reads after the first: {@value}. */
    static final long MIN_WINDOW = 1_024;
    /**
     * The most ids a window reads: {@value}. The rate a search has read at so far foretells the next
     * window's only while it reads pages as warm as before; a large window into pages not in memory
     * overran a 100 ms budget by 130 ms on 10 million jobs.
     */
    static final long MAX_WINDOW = 65_536;
    /** How long the search indexes a table has are taken as known: {@value} ns (30 s). */
    private static final long INDEXES_FRESH_NANOS = 30_000_000_000L;

    private final Driver driver;
    private volatile Set<SearchIndex> indexes = Set.of();
    private volatile long indexesRead;
    private volatile boolean indexesKnown;

    public JobSearch(Driver driver) {
        this.driver = driver;
    }

    /** A page of {@code query}'s matches, read for at most about {@code budget} when windows are needed. */
    public JobPage search(JobQuery query, Duration budget) {
        if (budget.isNegative()) {
            throw new IllegalArgumentException("budget must not be negative, was " + budget);
        }
        if (!needsWindows(query)) {
            return JobPage.listed(query, driver.jobList(query));
        }
        boolean forward = query.beforeId() == 0;
        JobListScan scan = JobListScan.of(query);
        Optional<Long> lowest = end(JobQuery.Order.OLDEST_FIRST);
        Optional<Long> highest = end(JobQuery.Order.NEWEST_FIRST);
        long low = Math.max(scan.fromId(), lowest.orElse(Long.MAX_VALUE));
        long high = Math.min(scan.toId(), highest.orElse(0L));
        if (scan.empty() || low > high) {
            return new JobPage(List.of(), Optional.empty(), false);
        }
        boolean down = scan.descending();
        JobQuery.Order readOrder = down ? JobQuery.Order.NEWEST_FIRST : JobQuery.Order.OLDEST_FIRST;
        List<JobRow> found = new ArrayList<>();
        long started = System.nanoTime();
        long window = FIRST_WINDOW;
        long next = down ? high : low;
        while (true) {
            long lo = down ? Math.max(low, next - window + 1) : next;
            long hi = down ? next : Math.min(high, next + window - 1);
            found.addAll(driver.jobList(query.idRange(lo, hi).order(readOrder).afterId(0)
                    .limit(query.limit() - found.size())));
            List<JobRow> jobs = scan.inQueryOrder(found);
            if (jobs.size() >= query.limit()) {
                return JobPage.listed(query, jobs);
            }
            if (down ? lo <= low : hi >= high) {
                return new JobPage(jobs, Optional.empty(), false);
            }
            long edge = down ? lo : hi;
            long elapsed = System.nanoTime() - started;
            long left = budget.toNanos() - elapsed;
            if (left <= 0) {
                return new JobPage(jobs, Optional.of(forward ? query.afterId(edge) : query.beforeId(edge)), true);
            }
            long read = (down ? high - lo : hi - low) + 1;
            long fits = (long) ((double) read / Math.max(1, elapsed) * left);
            window = Math.max(MIN_WINDOW, Math.min(Math.min(window * 4, MAX_WINDOW), fits));
            next = down ? lo - 1 : hi + 1;
        }
    }

    /** The lowest or the highest id in the table, read through the primary key. */
    private Optional<Long> end(JobQuery.Order order) {
        List<JobRow> one = driver.jobList(JobQuery.all().order(order).limit(1));
        return one.isEmpty() ? Optional.empty() : Optional.of(one.getFirst().id());
    }

    private boolean needsWindows(JobQuery query) {
        boolean kind = !query.kinds().isEmpty() && !indexes().contains(SearchIndex.KIND);
        boolean args = query.args().isPresent() && !indexes().contains(SearchIndex.ARGS);
        Set<JobState> states = query.states();
        boolean queue = !query.queues().isEmpty() && (states.isEmpty() || states.contains(JobState.COMPLETED)
                || states.contains(JobState.AVAILABLE));
        return kind || args || queue;
    }

    /** The search indexes the table has, read again once {@link #INDEXES_FRESH_NANOS} old. */
    private Set<SearchIndex> indexes() {
        if (driver.searchIndexesSupported().isEmpty()) {
            return Set.of();
        }
        long now = System.nanoTime();
        if (!indexesKnown || now - indexesRead > INDEXES_FRESH_NANOS) {
            indexes = Set.copyOf(driver.searchIndexList());
            indexesRead = now;
            indexesKnown = true;
        }
        return indexes;
    }
}
