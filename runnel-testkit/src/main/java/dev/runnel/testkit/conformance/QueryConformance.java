package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertResult;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.JobCount;
import dev.runnel.JobError;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.SearchIndex;
import dev.runnel.SearchIndexes;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobGetManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Times;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Reading jobs back: every column of a listed job, the list's filters together, counts by queue and state. */
public abstract class QueryConformance extends DriverConformance {

    private static JsonNode json(String text) {
        try {
            return JobJson.READER.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /**
     * Asserts that {@code actual} is {@code expected} in every column. Args and metadata are compared
     * as JSON values: a database may store them in a normal form (key order, spacing) of its own.
     */
    private static void assertSameJob(JobRow actual, JobRow expected) {
        assertThat(actual).as("job %d", expected.id()).usingRecursiveComparison().ignoringFields("args", "metadata")
                .isEqualTo(expected);
        assertThat(json(actual.args())).as("args of job %d", expected.id()).isEqualTo(json(expected.args()));
        assertThat(json(actual.metadata())).as("metadata of job %d", expected.id()).isEqualTo(json(expected.metadata()));
    }

    /** The one job of {@code query}'s results with this id. */
    private JobRow listed(JobQuery query, long id) {
        List<JobRow> found = driver.jobList(query).stream().filter(j -> j.id() == id).toList();
        assertThat(found).as("job %d in the list", id).hasSize(1);
        return found.getFirst();
    }

    @Test
    void searchIndexesAreOptionalAndListingsGiveTheSameAnswerWithThem() {
        SearchIndexes indexes = new SearchIndexes(driver);
        if (indexes.supported().isEmpty()) {
            assertThat(indexes.present()).isEmpty();
            assertThatThrownBy(() -> indexes.create(SearchIndex.KIND)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has no kind search index");
            return;
        }
        Instant created = Instant.parse("2026-12-01T00:00:00Z");
        List<JobInsertParams> jobs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            jobs.add(new JobInsertParams(i % 50 == 0 ? "rare_kind" : "common_kind", "{\"customer\":" + (i % 40) + "}",
                    "default", 1, JobState.AVAILABLE, created, created, 25, List.of(), "{}"));
        }
        driver.jobInsertMany(jobs);
        JobQuery byKind = JobQuery.all().kinds("rare_kind");
        JobQuery byArgs = JobQuery.all().args("{\"customer\": 7}");
        List<Long> kindBefore = driver.jobList(byKind).stream().map(JobRow::id).toList();
        List<Long> argsBefore = driver.jobList(byArgs).stream().map(JobRow::id).toList();
        assertThat(kindBefore).hasSize(4);
        assertThat(argsBefore).hasSize(5);
        assertThat(indexes.present()).isEmpty();
        for (SearchIndex index : indexes.supported()) {
            indexes.create(index);
            indexes.create(index); // a repeat changes nothing
        }
        assertThat(indexes.present()).isEqualTo(indexes.supported());
        assertThat(driver.jobList(byKind).stream().map(JobRow::id).toList()).isEqualTo(kindBefore);
        assertThat(driver.jobList(byArgs).stream().map(JobRow::id).toList()).isEqualTo(argsBefore);
        for (SearchIndex index : indexes.supported()) {
            indexes.drop(index);
        }
        assertThat(indexes.present()).isEmpty();
        assertThat(SearchIndex.named("args")).isEqualTo(SearchIndex.ARGS);
        assertThatThrownBy(() -> SearchIndex.named("tags")).hasMessageContaining("no search index named 'tags'");
    }

    @Test
    void aListedJobHasEveryColumnAsWritten() {
        String args = "{\"name\":\"q \\\"x\\\" é\",\"value\":7,\"nested\":{\"list\":[1,2.5,true,null],\"z\":\"\"}}";
        String metadata = "{\"tenant\":\"acme\",\"trace\":{\"id\":\"abc\"},\"n\":3}";
        Instant created = T0.minusNanos(1_234_567_891);
        Instant scheduled = T0.minusNanos(987_654_321);
        JobInsertParams insert = new JobInsertParams("query_job", args, "reports", 3, JobState.AVAILABLE, created,
                scheduled, 7, List.of("tag-a", "tag_b", "c"), metadata);
        JobInsertParams elsewhere = new JobInsertParams("other_job", "{}", "elsewhere", 1, JobState.AVAILABLE, created,
                scheduled, 1, List.of(), "{}");
        // Jobs alike in all but their args, and a batch of different jobs: drivers may insert each their own way.
        long[] ids = InsertResult.ids(driver.jobInsertMany(List.of(insert, insert, insert)));
        long[] mixed = InsertResult.ids(driver.jobInsertMany(List.of(elsewhere, insert)));

        // As inserted: every time cut to the microsecond, nothing attempted yet.
        for (long id : new long[] {ids[0], mixed[1]}) {
            JobRow fresh = new JobRow(id, "query_job", args, JobState.AVAILABLE, "reports", 3, 0, 7, Optional.empty(),
                    List.of(), Times.truncate(created), Times.truncate(scheduled), Optional.empty(), List.of(), metadata,
                    List.of("tag-a", "tag_b", "c"));
            assertSameJob(listed(JobQuery.all(), id), fresh);
        }

        // Claimed: the list shows what the claim returned.
        Instant claimedAt = T0.plusNanos(3_000_999);
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams("reports", 3, claimedAt, "client-q"));
        assertThat(claimed).extracting(JobRow::id).containsExactly(ids[0], ids[1], ids[2]);
        JobRow running = claimed.get(0);
        assertSameJob(running, new JobRow(ids[0], "query_job", args, JobState.RUNNING, "reports", 3, 1, 7,
                Optional.of(Times.truncate(claimedAt)), List.of("client-q"), Times.truncate(created),
                Times.truncate(scheduled), Optional.empty(), List.of(), metadata, List.of("tag-a", "tag_b", "c")));
        assertThat(listed(JobQuery.all(), ids[0])).isEqualTo(running);

        // Failed, with an error; and completed.
        Instant failedAt = T0.plusNanos(4_000_000_001L);
        JobError error = new JobError(1, failedAt, "it \"broke\"", "trace\n\tat here");
        assertThat(driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed.get(1), JobState.RETRYABLE,
                failedAt.plusSeconds(1), null, JobJson.encodeError(error), 0)))).containsExactly(ids[1]);
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(claimed.get(2)), failedAt)))
                .containsExactly(ids[2]);
        JobRow retryable = new JobRow(ids[1], claimed.get(1).kind(), claimed.get(1).args(), JobState.RETRYABLE,
                "reports", 3, 1, 7, claimed.get(1).attemptedAt(), List.of("client-q"), Times.truncate(created),
                Times.truncate(failedAt.plusSeconds(1)), Optional.empty(), List.of(error), claimed.get(1).metadata(),
                claimed.get(1).tags());
        JobRow completed = new JobRow(ids[2], claimed.get(2).kind(), claimed.get(2).args(), JobState.COMPLETED,
                "reports", 3, 1, 7, claimed.get(2).attemptedAt(), List.of("client-q"), Times.truncate(created),
                Times.truncate(scheduled), Optional.of(Times.truncate(failedAt)), List.of(), claimed.get(2).metadata(),
                claimed.get(2).tags());
        assertThat(listed(JobQuery.inStates(JobState.RETRYABLE), ids[1])).isEqualTo(retryable);
        assertThat(listed(JobQuery.inStates(JobState.COMPLETED), ids[2])).isEqualTo(completed);

        // Every read returns the same row.
        for (long id : new long[] {ids[0], ids[1], ids[2], mixed[0], mixed[1]}) {
            JobRow row = listed(JobQuery.all(), id);
            assertThat(driver.jobGet(id)).contains(row);
            assertThat(driver.jobGetMany(new JobGetManyParams(new long[] {id}))).containsExactly(row);
        }
        assertThat(driver.jobGetMany(new JobGetManyParams(new long[] {mixed[1], ids[0], mixed[1] + 100}))).containsExactlyInAnyOrder(
                driver.jobGet(mixed[1]).orElseThrow(), running);
    }

    /** A job of the listing model: its id, queue and state. */
    private record Listed(long id, String queue, JobState state) {}

    @Test
    void listCombinesStatesQueueAfterIdAndLimit() {
        JobMaker make = new JobMaker(driver);
        List<String> queues = List.of("q1", "q2", "q3");
        // Interleaved across queues and states. Available jobs are due only later, so that the claims
        // making the other states never take them.
        List<JobState> cycle = List.of(JobState.AVAILABLE, JobState.RUNNING, JobState.SCHEDULED, JobState.RETRYABLE,
                JobState.COMPLETED, JobState.AVAILABLE, JobState.DISCARDED, JobState.CANCELLED);
        List<Listed> model = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String queue = queues.get(i % queues.size());
            JobState state = cycle.get(i % cycle.size());
            Instant scheduledAt = state == JobState.AVAILABLE || state == JobState.SCHEDULED || state == JobState.RETRYABLE
                    ? T0.plusSeconds(3600) : T0;
            JobRow job = make.make(queue, state, scheduledAt, T0);
            model.add(new Listed(job.id(), queue, state));
        }
        long middle = model.get(model.size() / 2).id();
        List<Set<JobState>> stateSets = List.of(Set.of(), Set.of(JobState.AVAILABLE),
                Set.of(JobState.AVAILABLE, JobState.RETRYABLE), Set.of(JobState.RUNNING, JobState.COMPLETED,
                JobState.CANCELLED, JobState.DISCARDED), Set.of(JobState.SCHEDULED));
        List<Optional<String>> queueFilters = List.of(Optional.empty(), Optional.of("q1"), Optional.of("q3"),
                Optional.of("nowhere"));
        for (Set<JobState> states : stateSets) {
            for (Optional<String> queue : queueFilters) {
                for (long afterId : new long[] {0, middle}) {
                    for (int limit : new int[] {1, 3, 100}) {
                        JobQuery query = new JobQuery(states, queue, afterId, limit);
                        List<Long> expected = model.stream()
                                .filter(j -> states.isEmpty() || states.contains(j.state()))
                                .filter(j -> queue.isEmpty() || queue.get().equals(j.queue()))
                                .filter(j -> j.id() > afterId)
                                .sorted(Comparator.comparingLong(Listed::id))
                                .limit(limit).map(Listed::id).toList();
                        assertThat(driver.jobList(query)).as("%s", query).extracting(JobRow::id)
                                .containsExactlyElementsOf(expected);
                    }
                }
            }
        }
        // Paging through by afterId gives each matching job once, in id order.
        JobQuery query = new JobQuery(EnumSet.of(JobState.AVAILABLE, JobState.COMPLETED), Optional.of("q2"), 0, 2);
        List<Long> paged = new ArrayList<>();
        for (List<JobRow> page = driver.jobList(query); !page.isEmpty();
                page = driver.jobList(query.afterId(page.getLast().id()))) {
            assertThat(page.size()).isLessThanOrEqualTo(2);
            page.forEach(j -> paged.add(j.id()));
        }
        assertThat(paged).isNotEmpty().containsExactlyElementsOf(model.stream()
                .filter(j -> j.queue().equals("q2"))
                .filter(j -> j.state() == JobState.AVAILABLE || j.state() == JobState.COMPLETED)
                .map(Listed::id).toList());
    }

    @Test
    void countsByQueueAndStateAcrossQueues() {
        assertThat(driver.jobCountByState()).isEmpty();
        JobMaker make = new JobMaker(driver);
        // Claimed states first in each queue, so that no claim meets an available job.
        Stream.of(JobState.RUNNING, JobState.COMPLETED, JobState.COMPLETED, JobState.CANCELLED)
                .forEach(s -> make.make("alpha", s, T0, T0));
        Stream.of(JobState.RETRYABLE, JobState.RETRYABLE, JobState.DISCARDED, JobState.RUNNING, JobState.RUNNING,
                JobState.RUNNING).forEach(s -> make.make("beta", s, T0, T0));
        Stream.of(JobState.AVAILABLE, JobState.AVAILABLE, JobState.SCHEDULED)
                .forEach(s -> make.make("alpha", s, T0.plusSeconds(3600), T0));
        make.make("gamma", JobState.SCHEDULED, T0.plusSeconds(3600), T0);
        assertThat(driver.jobCountByState()).containsExactlyInAnyOrder(
                new JobCount("alpha", JobState.AVAILABLE, 2),
                new JobCount("alpha", JobState.SCHEDULED, 1),
                new JobCount("alpha", JobState.RUNNING, 1),
                new JobCount("alpha", JobState.COMPLETED, 2),
                new JobCount("alpha", JobState.CANCELLED, 1),
                new JobCount("beta", JobState.RETRYABLE, 2),
                new JobCount("beta", JobState.DISCARDED, 1),
                new JobCount("beta", JobState.RUNNING, 3),
                new JobCount("gamma", JobState.SCHEDULED, 1));
        // The quick counts a dashboard reads: on a table this small, every one exact, by queue then state.
        List<JobCount> fast = driver.jobCountByQueueAndState(JobCountParams.FAST);
        assertThat(fast).containsExactlyInAnyOrderElementsOf(driver.jobCountByState()).allMatch(JobCount::exact);
        assertThat(fast).isSortedAccordingTo(Comparator.comparing(JobCount::queue).thenComparing(JobCount::state));
        assertThat(inserter().jobs().counts()).isEqualTo(fast);
        assertThat(driver.jobCountByQueueAndState(JobCountParams.EXACT)).containsExactlyInAnyOrderElementsOf(fast);
    }
}
