package dev.runnel;

import java.util.List;
import java.util.Optional;

/**
 * A page of a search ({@link Jobs#search}): the jobs found, and the query that goes on from where
 * the search stopped.
 *
 * <p>A search for values no index finds (a rare kind or args value, say) reads the ids in windows
 * and stops at its time budget, so a page can hold fewer jobs than the limit and still have more
 * to read beyond it: {@link #partial()} says so, and {@link #more()} continues after the last id
 * read, not after the last job found. Pages are never wrong, only short: every job between the
 * cursor and where the search stopped that matches is on the page.
 *
 * @param jobs the jobs found, in the query's order, at most its limit
 * @param more the query for the following page in the direction read (after the page, or for a
 *     query with {@link JobQuery#beforeId()}, before it); empty when no id is left to read
 * @param partial whether the search stopped at its time budget with the page not full and ids left
 *     to read
 */
public record JobPage(List<JobRow> jobs, Optional<JobQuery> more, boolean partial) {
    public JobPage {
        jobs = List.copyOf(jobs);
    }

    /**
     * The page a whole listing of {@code query} ({@link Jobs#list}) returned as {@code jobs}: never
     * partial, and with more to read when it is full.
     */
    public static JobPage listed(JobQuery query, List<JobRow> jobs) {
        if (jobs.size() < query.limit()) {
            return new JobPage(jobs, Optional.empty(), false);
        }
        return new JobPage(jobs, Optional.of(query.beforeId() > 0 ? query.previousPage(jobs) : query.nextPage(jobs)),
                false);
    }
}
