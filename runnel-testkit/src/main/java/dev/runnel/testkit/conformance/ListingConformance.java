package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.JobDeleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Listing jobs: every filter alone and together, both orders, and keyset pages walked forwards
 * and back, against a model of 56 jobs in every state, kind, queue, tag set and shape of args.
 * Each answer is compared with the model's: the same jobs, in order, no gap and no repeat.
 */
public abstract class ListingConformance extends DriverConformance {
    private static final List<String> KINDS = List.of("alpha", "beta", "gamma");
    private static final List<String> QUEUES = List.of("q1", "q2", "q3");
    private static final List<List<String>> TAG_SETS = List.of(List.of(), List.of("red"), List.of("red", "blue"),
            List.of("blue", "green"));
    private static final List<JobState> STATES = List.of(JobState.AVAILABLE, JobState.SCHEDULED, JobState.RUNNING,
            JobState.RETRYABLE, JobState.COMPLETED, JobState.CANCELLED, JobState.DISCARDED);
    /**
     * The job created 40 s before the first, and the one created 20 to 55 s after the jobs of higher ids: ids
     * follow creation times only roughly (clocks of several clients), within CreationIds.SKEW.
     */
    private static final int EARLY = 10;
    private static final int LATE = 20;

    /** A job of the model, as it was made. */
    private record Made(long id, String kind, String queue, JobState state, List<String> tags, JsonNode args,
            Instant createdAt) {}

    private final List<Made> model = new ArrayList<>();

    @BeforeEach
    void makeTheModel() {
        JobMaker make = new JobMaker(driver);
        for (int i = 0; i < 56; i++) {
            ObjectNode args = JobJson.NODES.objectNode();
            // customer: integers, every fifth one written as a real; the rest varied in JSON type.
            if (i % 5 == 4) {
                args.put("customer", 4.0);
            } else {
                args.put("customer", i % 5);
            }
            args.put("region", i % 2 == 0 ? "eu" : "us");
            args.put("flag", i % 3 == 0);
            args.put("score", i % 4 + 0.5);
            if (i % 6 == 0) {
                args.putNull("note");
            } else {
                args.put("note", i % 7 == 1 ? "q \"x\" é" : "n" + i % 3);
            }
            if (i % 4 == 1) {
                args.put("a b", "1");
            }
            args.putObject("nested").put("deep", i % 2);
            String kind = KINDS.get(i % 3);
            String queue = QUEUES.get(i / 2 % 3);
            JobState state = STATES.get(i % 7);
            List<String> tags = TAG_SETS.get(i % 4);
            Instant created = i == EARLY ? T0.minusSeconds(40) : i == LATE ? T0.plusSeconds(75) : T0.plusSeconds(i);
            // Waiting jobs are due only later, so that the claims making the other states never take them.
            Instant scheduled = state == JobState.AVAILABLE || state == JobState.SCHEDULED || state == JobState.RETRYABLE
                    ? T0.plusSeconds(3600) : T0;
            JobRow row = make.make(new JobInsertParams(kind, args.toString(), queue, 1, JobState.AVAILABLE, created,
                    scheduled, 25, tags, "{}"), state, T0);
            assertThat(row.state()).isEqualTo(state);
            model.add(new Made(row.id(), kind, queue, state, tags, args, created));
        }
    }

    // ---- the model's answers ----

    private List<Long> expected(JobQuery query) {
        Comparator<Made> byId = Comparator.comparingLong(Made::id);
        return model.stream().filter(matches(query))
                .sorted(query.order() == JobQuery.Order.NEWEST_FIRST ? byId.reversed() : byId)
                .map(Made::id).toList();
    }

    private static Predicate<Made> matches(JobQuery q) {
        return j -> (q.states().isEmpty() || q.states().contains(j.state()))
                && (q.queues().isEmpty() || q.queues().contains(j.queue()))
                && (q.kinds().isEmpty() || q.kinds().contains(j.kind()))
                && j.tags().containsAll(q.tags())
                && q.args().map(a -> argsMatch(j.args(), a)).orElse(true)
                && j.id() >= q.minId() && j.id() <= q.maxId()
                && q.createdFrom().map(from -> !j.createdAt().isBefore(from)).orElse(true)
                && q.createdBefore().map(j.createdAt()::isBefore).orElse(true);
    }

    /** Each key of the filter present in the args with a value of the same JSON type, equal (numbers by value). */
    private static boolean argsMatch(JsonNode args, String filter) {
        JsonNode wanted = json(filter);
        for (Map.Entry<String, JsonNode> field : wanted.properties()) {
            JsonNode value = args.get(field.getKey());
            JsonNode want = field.getValue();
            boolean same = value != null && (want.isNumber()
                    ? value.isNumber() && value.decimalValue().compareTo(want.decimalValue()) == 0
                    : value.getNodeType() == want.getNodeType() && value.equals(want));
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode json(String text) {
        try {
            return JobJson.READER.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private List<Long> ids(JobQuery query) {
        return driver.jobList(query).stream().map(JobRow::id).toList();
    }

    /**
     * Asserts that {@code query}'s pages, walked forwards in both orders at several sizes, give
     * exactly the model's answer, and that each page's previous page is the page before it.
     */
    private void assertPages(JobQuery query) {
        for (JobQuery.Order order : JobQuery.Order.values()) {
            for (int limit : new int[] {3, 100}) {
                assertWalk(query.order(order).limit(limit));
            }
        }
    }

    private void assertWalk(JobQuery query) {
        List<Long> expected = expected(query);
        List<List<JobRow>> pages = new ArrayList<>();
        List<Long> walked = new ArrayList<>();
        List<JobRow> page = driver.jobList(query);
        while (true) {
            assertThat(page.size()).as("a page of %s", query).isLessThanOrEqualTo(query.limit());
            pages.add(page);
            page.forEach(j -> walked.add(j.id()));
            if (page.size() < query.limit()) {
                break;
            }
            page = driver.jobList(query.nextPage(page));
        }
        assertThat(walked).as("every page of %s", query).containsExactlyElementsOf(expected);
        if (!pages.getFirst().isEmpty()) {
            assertThat(driver.jobList(query.previousPage(pages.getFirst()))).as("before the first page of %s", query)
                    .isEmpty();
        }
        for (int i = 1; i < pages.size(); i++) {
            if (pages.get(i).isEmpty()) {
                continue;
            }
            assertThat(driver.jobList(query.previousPage(pages.get(i)))).as("page %d back from page %d of %s", i - 1, i,
                    query).isEqualTo(pages.get(i - 1));
        }
    }

    // ---- the tests ----

    @Test
    void everyJobPageByPageBothWays() {
        assertThat(expected(JobQuery.all())).hasSize(56);
        assertPages(JobQuery.all());
        assertWalk(JobQuery.all().limit(1).newestFirst());
        assertThat(ids(JobQuery.all().newestFirst().limit(2))).containsExactly(model.get(55).id(), model.get(54).id());
    }

    @Test
    void byState() {
        for (Set<JobState> states : List.of(Set.of(JobState.AVAILABLE), Set.of(JobState.RUNNING),
                Set.of(JobState.RUNNING, JobState.COMPLETED), Set.of(JobState.CANCELLED, JobState.DISCARDED,
                        JobState.RETRYABLE), Set.of(JobState.SCHEDULED))) {
            assertPages(JobQuery.all().states(states));
        }
        assertThat(expected(JobQuery.inStates(JobState.RUNNING))).hasSize(8);
    }

    @Test
    void byQueueAndKind() {
        assertPages(JobQuery.all().queue("q1"));
        assertPages(JobQuery.all().queues("q1", "q3"));
        assertPages(JobQuery.all().queue("nowhere"));
        assertPages(JobQuery.all().kinds("alpha"));
        assertPages(JobQuery.all().kinds("beta", "gamma"));
        assertThat(ids(JobQuery.all().kinds("nothing"))).isEmpty();
    }

    @Test
    void byTagsEveryOneGiven() {
        for (List<String> tags : List.of(List.of("red"), List.of("blue"), List.of("red", "blue"), List.of("green"),
                List.of("red", "green"))) {
            assertPages(JobQuery.all().tags(tags));
        }
        assertThat(expected(JobQuery.all().tags("red", "blue"))).hasSize(14);
        assertThat(expected(JobQuery.all().tags("red", "green"))).isEmpty();
    }

    @Test
    void byArgsTopLevelKeysAndScalarValues() {
        List<String> filters = List.of("{\"customer\": 2}", "{\"region\": \"eu\"}", "{\"customer\": 2, \"region\": \"eu\"}",
                "{\"flag\": true}", "{\"flag\": false}", "{\"note\": null}", "{\"score\": 1.5}",
                // Numbers compare by value, whichever way they were written.
                "{\"customer\": 4}", "{\"customer\": 4.0}", "{\"customer\": 2.0}",
                "{\"note\": \"q \\\"x\\\" é\"}", "{\"a b\": \"1\"}", "{\"missing\": 1}",
                // A value of another JSON type is another value: not true for 1, not "1" for 1.
                "{\"flag\": 1}", "{\"customer\": \"2\"}", "{\"a b\": 1}", "{\"note\": \"null\"}");
        for (String filter : filters) {
            assertPages(JobQuery.all().args(filter));
        }
        assertThat(expected(JobQuery.all().args("{\"customer\": 4}"))).hasSize(11);
        assertThat(expected(JobQuery.all().args("{\"flag\": 1}"))).isEmpty();
        assertThat(expected(JobQuery.all().args("{\"note\": \"q \\\"x\\\" é\"}"))).isNotEmpty();
        assertThat(ids(JobQuery.all().args(Map.of("customer", 2, "region", "eu")).limit(100)))
                .containsExactlyElementsOf(expected(JobQuery.all().args("{\"customer\": 2, \"region\": \"eu\"}")));
    }

    @Test
    void byIdRangeAndCreationTime() {
        long first = model.getFirst().id();
        assertPages(JobQuery.all().idRange(first + 10, first + 30));
        assertPages(JobQuery.all().idRange(first + 10, first + 10));
        assertPages(JobQuery.all().createdBetween(T0.plusSeconds(5), T0.plusSeconds(30)));
        assertPages(JobQuery.all().createdBetween(null, T0.plusSeconds(10)));
        assertPages(JobQuery.all().createdBetween(T0.plusSeconds(40), null));
        // The jobs created out of order with their ids (within the skew allowed) are found by their time.
        assertThat(ids(JobQuery.all().createdBetween(null, T0))).containsExactly(model.get(EARLY).id());
        assertThat(ids(JobQuery.all().createdBetween(T0.minusSeconds(45), T0.minusSeconds(35))))
                .containsExactly(model.get(EARLY).id());
        assertThat(ids(JobQuery.all().createdBetween(T0.plusSeconds(70), null))).containsExactly(model.get(LATE).id());
        assertThat(ids(JobQuery.all().createdBetween(T0.plusSeconds(70), T0.plusSeconds(80))))
                .containsExactly(model.get(LATE).id());
        assertThat(ids(JobQuery.all().createdBetween(T0.plusSeconds(3600), null))).isEmpty();
        // From is inclusive, before exclusive.
        assertThat(ids(JobQuery.all().createdBetween(T0.plusSeconds(3), T0.plusSeconds(4))))
                .containsExactly(model.get(3).id());
    }

    @Test
    void filtersTogether() {
        List<JobQuery> queries = List.of(
                JobQuery.all().states(JobState.AVAILABLE, JobState.COMPLETED).queue("q2").kinds("alpha", "beta"),
                JobQuery.all().tags("red").args("{\"region\": \"eu\"}"),
                JobQuery.all().kinds("gamma").createdBetween(T0.plusSeconds(3), null)
                        .idRange(model.get(5).id(), model.get(50).id()),
                JobQuery.all().states(JobState.RUNNING, JobState.RETRYABLE, JobState.DISCARDED).tags("blue")
                        .args("{\"flag\": false}").queues("q1", "q2"),
                JobQuery.all().states(JobState.COMPLETED).queue("q3").kinds("alpha").tags("red", "blue")
                        .args("{\"customer\": 0}").createdBetween(T0, T0.plusSeconds(60))
                        .idRange(model.get(1).id(), model.get(54).id()));
        for (JobQuery query : queries) {
            assertPages(query);
        }
        assertThat(Stream.of(queries.get(0), queries.get(1), queries.get(3)).map(this::expected))
                .allSatisfy(ids -> assertThat(ids).isNotEmpty());
    }

    @Test
    void aCursorBeyondTheEndsAndPagesAcrossChanges() {
        JobQuery newest = JobQuery.all().newestFirst().limit(5);
        assertThat(ids(newest.afterId(model.getFirst().id()))).isEmpty();
        assertThat(ids(newest.beforeId(model.getLast().id()))).isEmpty();
        assertThat(ids(JobQuery.all().afterId(Long.MAX_VALUE))).isEmpty();
        assertThat(ids(newest.beforeId(Long.MAX_VALUE))).isEmpty();
        assertThat(ids(JobQuery.all().limit(3).beforeId(Long.MAX_VALUE))).containsExactly(model.get(53).id(),
                model.get(54).id(), model.get(55).id());
        // Jobs inserted and deleted between pages: the next page goes on from the cursor, whatever changed.
        List<JobRow> page = driver.jobList(newest);
        driver.jobDeleteMany(new JobDeleteManyParams(new long[] {model.get(49).id()}));
        JobMaker make = new JobMaker(driver);
        long inserted = make.make("q1", JobState.SCHEDULED, T0.plusSeconds(3600), T0).id();
        assertThat(ids(newest.nextPage(page))).containsExactly(model.get(50).id(), model.get(48).id(),
                model.get(47).id(), model.get(46).id(), model.get(45).id());
        assertThat(ids(newest.previousPage(page))).containsExactly(inserted);
    }
}
