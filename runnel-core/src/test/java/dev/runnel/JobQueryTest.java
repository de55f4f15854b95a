package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.driver.JobListScan;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobQueryTest {
    private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void defaultsMatchEveryJobOldestFirstAndTheOldShapeStillBuilds() {
        JobQuery all = JobQuery.all();
        assertThat(all.filtered()).isFalse();
        assertThat(all.order()).isEqualTo(JobQuery.Order.OLDEST_FIRST);
        assertThat(all.limit()).isEqualTo(JobQuery.DEFAULT_LIMIT);
        assertThat(new JobQuery(Set.of(JobState.AVAILABLE), Optional.of("q"), 5, 10))
                .isEqualTo(JobQuery.inStates(JobState.AVAILABLE).queue("q").afterId(5).limit(10));
        for (JobQuery filtered : List.of(all.states(JobState.RUNNING), all.queue("q"), all.kinds("k"), all.tags("t"),
                all.args("{\"a\":1}"), all.idRange(1, Long.MAX_VALUE), all.idRange(0, 5), all.createdBetween(T, null),
                all.createdBetween(null, T))) {
            assertThat(filtered.filtered()).as("%s", filtered).isTrue();
        }
        assertThat(all.newestFirst().afterId(7).limit(3).filtered()).isFalse();
        assertThat(all.args("{}").args()).isEmpty();
        assertThat(all.args(" { \"b\" : true , \"a\": 1.50 } ").args()).contains("{\"b\":true,\"a\":1.5}");
        assertThat(all.args(Map.of("n", 2)).args()).contains("{\"n\":2}");
        assertThat(all.queues("b", "a").queues()).containsExactly("a", "b");
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        JobQuery all = JobQuery.all();
        assertRefused(() -> all.limit(0), "limit");
        assertRefused(() -> all.limit(JobQuery.MAX_LIMIT + 1), "limit");
        assertRefused(() -> all.queue(" padded "), "queue");
        assertRefused(() -> all.queues(Arrays.asList("a", null)), "queue");
        assertRefused(() -> all.kinds(""), "kind");
        assertRefused(() -> all.tags("two words"), "tags");
        assertRefused(() -> all.states(Arrays.asList(JobState.RUNNING, null)), "state");
        assertRefused(() -> all.args("[1, 2]"), "args");
        assertRefused(() -> all.args("{\"a\": "), "args");
        assertRefused(() -> all.args("{\"a\": {\"b\": 1}}"), "args");
        assertRefused(() -> all.args("{\"a\": [1]}"), "args");
        assertRefused(() -> all.idRange(-1, 5), "minId");
        assertRefused(() -> all.idRange(6, 5), "maxId");
        assertRefused(() -> all.createdBetween(T, T), "createdFrom");
        assertRefused(() -> all.afterId(-1), "afterId");
        assertRefused(() -> all.order(null), "order");
        assertRefused(() -> new JobQuery(Set.of(), Set.of(), Set.of(), Set.of(), Optional.empty(), 0, Long.MAX_VALUE,
                Optional.empty(), Optional.empty(), JobQuery.Order.OLDEST_FIRST, 3, 4, 10), "afterId and beforeId");
        assertRefused(() -> all.nextPage(List.of()), "empty page");
        String[] many = new String[JobQuery.MAX_VALUES + 1];
        Arrays.setAll(many, i -> "q" + i);
        assertRefused(() -> all.queues(many), "queues");
    }

    @Test
    void aCursorReplacesTheOther() {
        JobQuery q = JobQuery.all().afterId(5).beforeId(9);
        assertThat(q.afterId()).isZero();
        assertThat(q.beforeId()).isEqualTo(9);
        assertThat(q.afterId(3).beforeId()).isZero();
    }

    @Test
    void theScanOfEachOrderAndCursor() {
        JobQuery range = JobQuery.all().idRange(10, 100);
        assertThat(JobListScan.of(range)).isEqualTo(new JobListScan(false, 10, 100, false));
        assertThat(JobListScan.of(range.afterId(50))).isEqualTo(new JobListScan(false, 51, 100, false));
        assertThat(JobListScan.of(range.beforeId(50))).isEqualTo(new JobListScan(true, 10, 49, true));
        JobQuery newest = range.newestFirst();
        assertThat(JobListScan.of(newest)).isEqualTo(new JobListScan(true, 10, 100, false));
        assertThat(JobListScan.of(newest.afterId(50))).isEqualTo(new JobListScan(true, 10, 49, false));
        assertThat(JobListScan.of(newest.beforeId(50))).isEqualTo(new JobListScan(false, 51, 100, true));
        assertThat(JobListScan.of(newest.afterId(5)).empty()).isTrue();
        assertThat(JobListScan.of(JobQuery.all().afterId(Long.MAX_VALUE)).empty()).isTrue();
        assertThat(JobListScan.of(JobQuery.all().newestFirst().beforeId(Long.MAX_VALUE)).empty()).isTrue();
        assertThat(JobListScan.of(JobQuery.all().newestFirst().afterId(Long.MAX_VALUE)))
                .isEqualTo(new JobListScan(true, 0, Long.MAX_VALUE - 1, false));
    }

    private static void assertRefused(Runnable build, String naming) {
        assertThatThrownBy(build::run).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(naming);
    }
}
