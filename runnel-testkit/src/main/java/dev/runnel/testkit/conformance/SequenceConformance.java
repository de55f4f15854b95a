package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobDiscard;
import dev.runnel.JobState;
import dev.runnel.KeyLimit;
import dev.runnel.Runnel;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sequences: the jobs of one key run one at a time, in insert order, across clients, each released
 * by the outcome of the one before it; a failure holds the sequence while it is retried.
 */
public abstract class SequenceConformance extends DriverConformance {
    private final List<String> started = new CopyOnWriteArrayList<>();

    @BeforeEach
    void needsLinks() {
        org.junit.jupiter.api.Assumptions.assumeTrue(driver.supportsLinks(), driver.name() + " stores no sequences");
    }

    private static InsertOptions in(String key) {
        return InsertOptions.builder().sequence(key).build();
    }

    private JobState state(Runnel runnel, long id) {
        return runnel.jobGet(id).orElseThrow().state();
    }

    @Test
    void jobsOfOneKeyRunOneAtATimeInInsertOrderAcrossClients() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        dev.runnel.Worker<TestArgs> work = job -> {
            if (job.args().name().equals("sms") && running.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            started.add(job.args().name() + job.args().value());
            Thread.sleep(2);
            if (job.args().name().equals("sms")) {
                running.decrementAndGet();
            }
        };
        Runnel a = started(client().queue("default", 10).worker(TestArgs.class, work));
        started(client().queue("default", 10).worker(TestArgs.class, work));
        List<Long> ids = new ArrayList<>();
        for (int batch = 0; batch < 4; batch++) {
            List<InsertRequest> requests = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                requests.add(new InsertRequest(new TestArgs("sms", batch * 5 + i), in("customer-42")));
                requests.add(new InsertRequest(new TestArgs("other", batch * 5 + i), InsertOptions.NONE));
            }
            for (InsertResult r : a.insertMany(requests)) {
                ids.add(r.id());
            }
        }
        Await.until("every job completed", () -> ids.stream().allMatch(id -> state(a, id) == JobState.COMPLETED));
        List<String> sms = started.stream().filter(s -> s.startsWith("sms")).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            expected.add("sms" + i);
        }
        assertThat(sms).containsExactlyElementsOf(expected);
        assertThat(overlaps.get()).isZero();
        assertThat(a.jobs().links(ids.getFirst()).orElseThrow().sequenceKey()).contains("customer-42");
    }

    @Test
    void aJobInsertedAfterItsPredecessorCompletedIsAvailableAtOnce() {
        Runnel inserter = inserter();
        long first = inserter.insert(new TestArgs("a", 0), in("k")).id();
        long second = inserter.insert(new TestArgs("b", 0), in("k")).id();
        assertThat(state(inserter, first)).isEqualTo(JobState.AVAILABLE);
        assertThat(state(inserter, second)).isEqualTo(JobState.PENDING);
        long otherKey = inserter.insert(new TestArgs("c", 0), in("other")).id();
        assertThat(state(inserter, otherKey)).isEqualTo(JobState.AVAILABLE);

        Runnel runnel = started(client().queue("default", 5).worker(TestArgs.class, job -> {}));
        Await.until("both ran", () -> state(runnel, second) == JobState.COMPLETED);
        long third = inserter.insert(new TestArgs("d", 0), in("k")).id();
        Await.until("the third ran", () -> state(runnel, third) == JobState.COMPLETED);
    }

    @Test
    void aFailingJobHoldsItsSequenceWhileItIsRetried() {
        AtomicInteger attempts = new AtomicInteger();
        Runnel runnel = started(client().queue("default", 5).worker(TestArgs.class, job -> {
            started.add(job.args().name());
            if (job.args().name().equals("first") && attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("try again");
            }
        }));
        long first = runnel.insert(new TestArgs("first", 0), in("k")).id();
        long second = runnel.insert(new TestArgs("second", 0), in("k")).id();
        Await.until("the first attempt failed", () -> state(runnel, first) == JobState.RETRYABLE);
        assertThat(state(runnel, second)).isEqualTo(JobState.PENDING);
        clock.advance(Duration.ofHours(1)); // past the retry's backoff
        Await.until("the second ran", () -> state(runnel, second) == JobState.COMPLETED);
        assertThat(started).containsExactly("first", "first", "second");
    }

    @Test
    void aDiscardedJobHoldsItsSequenceUnlessItMovesOn() {
        Runnel runnel = started(client().queue("default", 5).worker(TestArgs.class, job -> {
            if (job.args().name().startsWith("bad")) {
                throw new JobDiscard("poison");
            }
        }));
        long bad = runnel.insert(new TestArgs("bad", 0), in("held")).id();
        long held = runnel.insert(new TestArgs("next", 0), in("held")).id();
        Await.until("discarded", () -> state(runnel, bad) == JobState.DISCARDED);
        assertThat(state(runnel, held)).isEqualTo(JobState.PENDING);
        runnel.jobs().delete(bad);
        Await.until("released by the delete", () -> state(runnel, held) == JobState.COMPLETED);

        long movesOn = runnel.insert(new TestArgs("bad-too", 0), in("moves")).id();
        long after = runnel.insert(new TestArgs("after", 0),
                InsertOptions.builder().sequence("moves").sequenceMovesOnDiscard(true).build()).id();
        Await.until("moved on", () -> state(runnel, after) == JobState.COMPLETED);
        assertThat(state(runnel, movesOn)).isEqualTo(JobState.DISCARDED);

        long cancelled = runnel.insert(new TestArgs("cancelled", 0),
                InsertOptions.builder().sequence("c").scheduledAt(T0.plusSeconds(3600)).build()).id();
        long next = runnel.insert(new TestArgs("next", 1), in("c")).id();
        assertThat(state(runnel, next)).isEqualTo(JobState.PENDING);
        runnel.jobs().cancel(cancelled);
        Await.until("a cancel moves on", () -> state(runnel, next) == JobState.COMPLETED);
    }

    @Test
    void sequencesCombineWithPerKeyLimits() {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Runnel runnel = started(client().queue("limited", 5)
                .keyLimit("limited", new KeyLimit(KeyLimit.Source.ARGS, "name", 1))
                .worker(TestArgs.class, job -> seen.add(job.args().name() + job.args().value())));
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ids.add(runnel.insert(new TestArgs(i % 2 == 0 ? "even" : "odd", i),
                    InsertOptions.builder().queue("limited").sequence("s" + (i % 3)).build()).id());
        }
        Await.until("all ran", () -> ids.stream().allMatch(id -> state(runnel, id) == JobState.COMPLETED));
        assertThat(seen).hasSize(6);
    }

    @Test
    void aSequenceOnAnAtMostOnceQueueIsRefused() {
        Runnel atMostOnce = Runnel.builder().driver(driver).clock(clock)
                .queue("fast", 1, Runnel.Delivery.AT_MOST_ONCE).worker(TestArgs.class, job -> {}).build();
        assertThatThrownBy(() -> atMostOnce.insert(new TestArgs("a", 0),
                InsertOptions.builder().queue("fast").sequence("customer-7").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence customer-7").hasMessageContaining("at most once");
        assertThat(driver.jobClaim(new JobClaimParams("fast", 10, clock.instant(), "c"))).isEmpty();
        assertThatThrownBy(() -> InsertOptions.builder().sequence(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sequence");
    }
}
