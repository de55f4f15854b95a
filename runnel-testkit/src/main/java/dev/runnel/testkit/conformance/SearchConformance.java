package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Jobs;
import dev.runnel.SearchIndex;
import dev.runnel.SearchIndexes;
import dev.runnel.driver.JobInsertParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Searching for people ({@link Jobs#search}): a filter no index serves is read in windows of ids
 * and stops at its time budget, and walking the pages it returns finds exactly what listing the
 * whole table finds, in order, none twice, in either order and from either side of a cursor.
 * 10,000 jobs, so that a search reads several windows.
 */
public abstract class SearchConformance extends DriverConformance {
    private static final int JOBS = 10_000;
    private static final Duration PLENTY = Duration.ofMinutes(1);

    private Jobs jobs;
    private long firstId;

    @BeforeEach
    void insertJobs() {
        List<JobInsertParams> batch = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            String kind = i % 997 == 5 ? "rare_kind" : "common_kind";
            String queue = i % 1_500 == 7 ? "rare_queue" : "default";
            batch.add(new JobInsertParams(kind, "{\"n\":" + i % 1_000 + "}", queue, 1, JobState.AVAILABLE, T0, T0, 25,
                    List.of(), "{}"));
            if (batch.size() == 1_000) {
                driver.jobInsertMany(batch);
                batch.clear();
            }
        }
        jobs = client().build().jobs();
        firstId = jobs.list(JobQuery.all().limit(1)).getFirst().id();
    }

    /** The searches under test, each in both orders. */
    private static List<JobQuery> searches() {
        List<JobQuery> queries = new ArrayList<>();
        for (JobQuery q : List.of(JobQuery.all().kinds("rare_kind"), JobQuery.all().args("{\"n\": 7}"),
                JobQuery.all().queue("rare_queue"), JobQuery.all().kinds("no_such_kind"),
                JobQuery.all().kinds("rare_kind", "common_kind").args("{\"n\": 5}").limit(3))) {
            queries.add(q);
            queries.add(q.newestFirst());
        }
        return queries;
    }

    /** Every match of {@code query} after its cursor, as listing the whole table pages them. */
    private List<Long> listedAll(JobQuery query) {
        List<Long> ids = new ArrayList<>();
        JobQuery page = query;
        while (true) {
            List<JobRow> rows = jobs.list(page);
            rows.forEach(r -> ids.add(r.id()));
            if (rows.size() < page.limit()) {
                return ids;
            }
            page = page.nextPage(rows);
        }
    }

    /** Every job the pages of a search from {@code query} find, following {@link JobPage#more()}; the pages read. */
    private List<Long> searchedAll(JobQuery query, Duration budget, List<JobPage> pages) {
        List<Long> ids = new ArrayList<>();
        Optional<JobQuery> next = Optional.of(query);
        while (next.isPresent()) {
            JobPage page = jobs.search(next.get(), budget);
            assertThat(page.jobs()).hasSizeLessThanOrEqualTo(next.get().limit());
            if (page.partial()) {
                assertThat(page.jobs()).as("a partial page is short").hasSizeLessThan(next.get().limit());
            }
            page.jobs().forEach(j -> ids.add(j.id()));
            pages.add(page);
            next = page.more();
            assertThat(pages).as("pages of %s", query).hasSizeLessThan(JOBS);
        }
        return ids;
    }

    @Test
    void withTimeToSpareASearchFindsWhatListingFinds() {
        for (JobQuery query : searches()) {
            JobPage page = jobs.search(query, PLENTY);
            assertThat(page.partial()).as("%s", query).isFalse();
            assertThat(page.jobs()).as("%s", query).isEqualTo(jobs.list(query));
            assertThat(searchedAll(query, PLENTY, new ArrayList<>())).as("%s", query).isEqualTo(listedAll(query))
                    .doesNotHaveDuplicates();
        }
        assertThat(listedAll(JobQuery.all().kinds("rare_kind"))).hasSize(11);
        assertThat(listedAll(JobQuery.all().args("{\"n\": 7}"))).hasSize(10);
    }

    @Test
    void outOfTimeASearchReturnsWhatItReadAndGoesOnFromThere() {
        for (JobQuery query : searches()) {
            List<JobPage> pages = new ArrayList<>();
            assertThat(searchedAll(query, Duration.ZERO, pages)).as("%s", query).isEqualTo(listedAll(query));
            // No time: one window of ids a page, so the 10,000 ids take several pages, some of them short.
            assertThat(pages).as("%s", query).hasSizeGreaterThanOrEqualTo(3);
            assertThat(pages.getFirst().partial()).as("%s", query).isEqualTo(pages.getFirst().jobs().size()
                    < query.limit());
            assertThat(pages.getLast().partial()).as("the last page of %s", query).isFalse();
        }
        JobPage none = jobs.search(JobQuery.all().kinds("no_such_kind").newestFirst(), Duration.ZERO);
        assertThat(none.jobs()).isEmpty();
        assertThat(none.partial()).isTrue();
        long edge = none.more().orElseThrow().afterId();
        assertThat(edge).as("read a window down from the newest id").isBetween(firstId + 1, firstId + JOBS - 1);
    }

    @Test
    void aSearchBeforeACursorWalksBackTowardsTheFirstPage() {
        long middle = firstId + JOBS / 2;
        for (JobQuery query : searches()) {
            JobQuery before = query.beforeId(middle);
            List<Long> expected = new ArrayList<>();
            // Backwards from the cursor, page by page, each page in the query's order: as previousPage walks.
            JobQuery page = before;
            while (true) {
                List<JobRow> rows = jobs.list(page);
                expected.addAll(0, rows.stream().map(JobRow::id).toList());
                if (rows.size() < page.limit()) {
                    break;
                }
                page = page.previousPage(rows);
            }
            List<Long> found = new ArrayList<>();
            Optional<JobQuery> next = Optional.of(before);
            while (next.isPresent()) {
                JobPage p = jobs.search(next.get(), Duration.ZERO);
                found.addAll(0, p.jobs().stream().map(JobRow::id).toList());
                next = p.more();
            }
            assertThat(found).as("%s", before).isEqualTo(expected);
        }
    }

    @Test
    void aFullPageIsNeverPartialAndFiltersAnIndexServesAreReadWhole() {
        JobPage common = jobs.search(JobQuery.all().kinds("common_kind").newestFirst().limit(50), Duration.ZERO);
        assertThat(common.jobs()).hasSize(50);
        assertThat(common.partial()).isFalse();
        assertThat(common.more()).contains(JobQuery.all().kinds("common_kind").newestFirst().limit(50)
                .nextPage(common.jobs()));
        // By state alone: an index, or the whole listing, not windows.
        JobPage running = jobs.search(JobQuery.inStates(JobState.RUNNING), Duration.ZERO);
        assertThat(running.jobs()).isEmpty();
        assertThat(running.partial()).isFalse();
        assertThat(running.more()).isEmpty();
        JobPage available = jobs.search(JobQuery.inStates(JobState.AVAILABLE).limit(10_000), Duration.ZERO);
        assertThat(available.jobs()).hasSize(JOBS);
    }

    @Test
    void withTheSearchIndexesAKindOrArgsSearchIsReadWhole() {
        SearchIndexes indexes = new SearchIndexes(driver);
        if (!indexes.supported().containsAll(List.of(SearchIndex.KIND, SearchIndex.ARGS))) {
            JobPage page = jobs.search(JobQuery.all().kinds("no_such_kind"), Duration.ZERO);
            assertThat(page.partial()).as("no index: windows").isTrue();
            return;
        }
        indexes.create(SearchIndex.KIND);
        indexes.create(SearchIndex.ARGS);
        Jobs fresh = client().build().jobs(); // the indexes a client saw are kept for a while
        for (JobQuery query : List.of(JobQuery.all().kinds("no_such_kind"), JobQuery.all().kinds("rare_kind"),
                JobQuery.all().args("{\"n\": 7}").newestFirst())) {
            JobPage page = fresh.search(query, Duration.ZERO);
            assertThat(page.partial()).as("%s", query).isFalse();
            assertThat(page.more()).as("%s", query).isEmpty();
            assertThat(page.jobs()).as("%s", query).isEqualTo(jobs.list(query));
        }
    }
}
