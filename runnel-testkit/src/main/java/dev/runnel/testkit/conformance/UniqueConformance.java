package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobArgs;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import dev.runnel.UniqueOptions;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobSetStateParams;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Unique jobs: the database refuses a duplicate, in every insert path and every state change. */
public abstract class UniqueConformance extends DriverConformance {
    private static final UniqueOptions BY_KIND = UniqueOptions.builder().build();
    private static final UniqueOptions BY_ARGS = UniqueOptions.builder().byArgs().build();

    private static InsertOptions unique(UniqueOptions unique) {
        return InsertOptions.builder().unique(unique).build();
    }

    /** Args with a map, whose order must not matter, and a field to leave out of the key. */
    public record Report(String account, Map<String, Integer> filters, long requestedAt) implements JobArgs {
        @Override
        public String kind() {
            return "report";
        }
    }

    private static String error(String message) {
        return "{\"attempt\":1,\"at\":\"" + T0 + "\",\"error\":\"" + message + "\",\"trace\":\"\"}";
    }

    private long count(JobState... states) {
        return driver.jobList(JobQuery.inStates(states).limit(10_000)).size();
    }

    @Test
    void aSecondInsertIsADuplicateThatReturnsTheFirstJobsId() {
        Runnel runnel = inserter();
        InsertResult first = runnel.insert(new TestArgs("a", 1), unique(BY_KIND));
        InsertResult second = runnel.insert(new TestArgs("b", 2), unique(BY_KIND));
        assertThat(first.duplicate()).isFalse();
        assertThat(second).isEqualTo(new InsertResult(first.id(), true));
        assertThat(count()).isEqualTo(1);
        // A job that is not unique is never a duplicate, not even of a unique one.
        assertThat(runnel.insert(new TestArgs("a", 1)).duplicate()).isFalse();
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void theKeyTakesTheArgsAllOfThemOrTheFieldsNamed() {
        Runnel runnel = inserter();
        Map<String, Integer> ab = new java.util.LinkedHashMap<>();
        ab.put("a", 1);
        ab.put("b", 2);
        Map<String, Integer> ba = new java.util.LinkedHashMap<>();
        ba.put("b", 2);
        ba.put("a", 1);
        long id = runnel.insert(new Report("acme", ab, 1), unique(BY_ARGS)).id();
        assertThat(runnel.insert(new Report("acme", ba, 1), unique(BY_ARGS))).isEqualTo(new InsertResult(id, true));
        assertThat(runnel.insert(new Report("acme", ab, 2), unique(BY_ARGS)).duplicate()).isFalse();

        UniqueOptions byAccount = UniqueOptions.builder().byArgs("account", "filters").build();
        long other = runnel.insert(new Report("globex", ab, 1), unique(byAccount)).id();
        assertThat(runnel.insert(new Report("globex", ba, 99), unique(byAccount))).isEqualTo(new InsertResult(other, true));
        assertThat(runnel.insert(new Report("initech", ab, 1), unique(byAccount)).duplicate()).isFalse();
    }

    @Test
    void aFieldTheArgsLackIsRefusedBeforeAnythingIsWritten() {
        Runnel runnel = inserter();
        UniqueOptions byMissing = UniqueOptions.builder().byArgs("account", "region").build();
        assertThatThrownBy(() -> runnel.insertMany(List.of(InsertRequest.of(new TestArgs("fine", 1)),
                new InsertRequest(new Report("acme", Map.of(), 1), unique(byMissing)))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unique byArgs field 'region' is not in the args of kind report")
                .hasMessageContaining("account, filters, requestedAt");
        assertThat(count()).isZero();
    }

    @Test
    void byPeriodAndByQueueSplitTheKey() {
        Runnel runnel = inserter();
        UniqueOptions hourly = UniqueOptions.builder().byPeriod(Duration.ofHours(1)).build();
        InsertOptions at = InsertOptions.builder().unique(hourly).scheduledAt(T0.plusSeconds(60)).build();
        long first = runnel.insert(new TestArgs("a", 1), at).id();
        InsertOptions sameHour = InsertOptions.builder().unique(hourly).scheduledAt(T0.plus(Duration.ofMinutes(59))).build();
        assertThat(runnel.insert(new TestArgs("b", 1), sameHour)).isEqualTo(new InsertResult(first, true));
        InsertOptions nextHour = InsertOptions.builder().unique(hourly).scheduledAt(T0.plus(Duration.ofMinutes(61))).build();
        assertThat(runnel.insert(new TestArgs("c", 1), nextHour).duplicate()).isFalse();

        UniqueOptions byQueue = UniqueOptions.builder().byQueue().build();
        long inA = runnel.insert(new TestArgs("q", 1), InsertOptions.builder().unique(byQueue).queue("a").build()).id();
        assertThat(runnel.insert(new TestArgs("q", 1), InsertOptions.builder().unique(byQueue).queue("b").build())
                .duplicate()).isFalse();
        assertThat(runnel.insert(new TestArgs("q", 1), InsertOptions.builder().unique(byQueue).queue("a").build()))
                .isEqualTo(new InsertResult(inA, true));
    }

    @Test
    void theKeyIsFreeOnceItsJobIsFinalUnlessItsStatesSayOtherwise() {
        Runnel runnel = inserter();
        long first = runnel.insert(new TestArgs("a", 1), unique(BY_KIND)).id();
        // Held while it waits, runs, and waits for its retry.
        List<JobRow> claimed = claimQueue("default", 1);
        assertThat(runnel.insert(new TestArgs("a", 1), unique(BY_KIND))).isEqualTo(new InsertResult(first, true));
        driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed.getFirst(), JobState.RETRYABLE, T0, null, error("boom"), 0)));
        assertThat(runnel.insert(new TestArgs("a", 1), unique(BY_KIND))).isEqualTo(new InsertResult(first, true));
        // The scheduler moves it back to available: it never meets a duplicate on the way.
        clock.advance(Duration.ofSeconds(1));
        assertThat(driver.jobScheduleDue(new dev.runnel.driver.JobScheduleParams(clock.instant(), 100))).isEqualTo(1);
        driver.jobCompleteMany(JobCompleteManyParams.of(claimQueue("default", 1), clock.instant()));
        assertThat(driver.jobGet(first).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        // Completed: the default states leave the key free.
        InsertResult second = runnel.insert(new TestArgs("a", 1), unique(BY_KIND));
        assertThat(second.duplicate()).isFalse();

        // A job unique while completed keeps it after it completes.
        UniqueOptions once = UniqueOptions.builder().states(JobState.SCHEDULED, JobState.AVAILABLE, JobState.RUNNING,
                JobState.RETRYABLE, JobState.COMPLETED).build();
        long onlyOnce = runnel.insert(new OrphanArgs("x"), unique(once)).id();
        driver.jobCompleteMany(JobCompleteManyParams.of(claimQueue("default", 10).stream()
                .filter(j -> j.id() == onlyOnce).toList(), clock.instant()));
        assertThat(driver.jobGet(onlyOnce).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        assertThat(runnel.insert(new OrphanArgs("x"), unique(once))).isEqualTo(new InsertResult(onlyOnce, true));
    }

    @Test
    void statesLeavingOutOnesAJobMovesThroughAloneAreRefused() {
        assertThatThrownBy(() -> UniqueOptions.builder().states(JobState.AVAILABLE, JobState.RUNNING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unique states must include scheduled, available, running and retryable");
        assertThatThrownBy(() -> UniqueOptions.builder().byPeriod(Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("byPeriod must be at least 1s");
        assertThatThrownBy(() -> UniqueOptions.builder().byArgs(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be blank");
    }

    @Test
    void insertManyWritesTheRestOfABatchWithDuplicatesInsideItAndAgainstTheTable() {
        Runnel runnel = inserter();
        long existing = runnel.insert(new TestArgs("held", 0), unique(BY_ARGS)).id();
        List<InsertResult> results = runnel.insertMany(List.of(
                new InsertRequest(new TestArgs("new", 1), unique(BY_ARGS)),
                InsertRequest.of(new TestArgs("plain", 2)),
                new InsertRequest(new TestArgs("held", 0), unique(BY_ARGS)),
                new InsertRequest(new TestArgs("new", 1), unique(BY_ARGS)),
                InsertRequest.of(new TestArgs("plain", 2))));
        assertThat(results).extracting(InsertResult::duplicate).containsExactly(false, false, true, true, false);
        assertThat(results.get(2).id()).isEqualTo(existing);
        assertThat(results.get(3).id()).isEqualTo(results.get(0).id());
        assertThat(results.get(4).id()).isNotEqualTo(results.get(1).id());
        assertThat(count()).isEqualTo(4);
        assertThat(driver.jobGet(results.get(0).id()).orElseThrow().args()).contains("\"new\"");
    }

    @Test
    void insideTheCallersTransactionADuplicateIsReportedAndARollbackFreesTheKey() throws Exception {
        assumeTransactionalInsert();
        Runnel runnel = inserter();
        try (Connection tx = newConnection(dir)) {
            tx.setAutoCommit(false);
            InsertResult first = runnel.insert(tx, new TestArgs("a", 1), unique(BY_KIND));
            assertThat(runnel.insert(tx, new TestArgs("a", 1), unique(BY_KIND))).isEqualTo(new InsertResult(first.id(), true));
            tx.rollback();
            InsertResult again = runnel.insert(tx, new TestArgs("a", 1), unique(BY_KIND));
            assertThat(again.duplicate()).isFalse();
            tx.commit();
            assertThat(runnel.insert(new TestArgs("a", 1), unique(BY_KIND))).isEqualTo(new InsertResult(again.id(), true));
        }
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void twentyThreadsInsertingTheSameJobLeaveOneRow() throws Exception {
        Runnel runnel = inserter();
        int threads = 20;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<InsertResult>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return runnel.insert(new TestArgs("race", 7), unique(BY_ARGS));
                }));
            }
            go.countDown();
            List<InsertResult> results = new ArrayList<>();
            for (Future<InsertResult> f : futures) {
                results.add(f.get());
            }
            assertThat(results).extracting(InsertResult::id).containsOnly(results.getFirst().id());
            assertThat(results).filteredOn(r -> !r.duplicate()).hasSize(1);
            assertThat(count()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void retryingAFinalJobWhoseKeyIsTakenIsRefusedWithTheReason() {
        Runnel runnel = inserter();
        long old = runnel.insert(new TestArgs("a", 1), unique(BY_KIND)).id();
        driver.jobSetStateMany(List.of(JobSetStateParams.of(claimQueue("default", 1).getFirst(), JobState.DISCARDED,
                T0, T0, error("gave up"), 0)));
        long newer = runnel.insert(new TestArgs("a", 1), unique(BY_KIND)).id();
        assertThat(newer).isNotEqualTo(old);
        assertThatThrownBy(() -> runnel.jobs().retry(old)).isInstanceOf(RunnelException.class)
                .hasMessageContaining("job " + old + " is discarded and unique, and job " + newer + " holds its unique key");
        assertThat(runnel.jobs().retry(JobQuery.inStates(JobState.DISCARDED))).isZero();
        assertThat(driver.jobGet(old).orElseThrow().state()).isEqualTo(JobState.DISCARDED);
        // Once the newer one is gone, the old one can run again.
        runnel.jobs().delete(newer);
        assertThat(runnel.jobs().retry(old).state()).isEqualTo(JobState.AVAILABLE);
    }

    @Test
    void anAtMostOnceClaimFreesTheKey() {
        Runnel runnel = inserter();
        long first = runnel.insert(new TestArgs("a", 1), unique(BY_KIND)).id();
        assertThat(driver.jobClaim(new JobClaimParams("default", 1, clock.instant(), "c", true)))
                .extracting(JobRow::id).containsExactly(first);
        assertThat(runnel.insert(new TestArgs("a", 1), unique(BY_KIND)).duplicate()).isFalse();
    }

    @Test
    void perKindUniqueOptionsApply() {
        Runnel runnel = inserter();
        long first = runnel.insert(new Daily("x")).id();
        assertThat(runnel.insert(new Daily("y"))).isEqualTo(new InsertResult(first, true));
        // Given options without unique keep the kind's.
        assertThat(runnel.insert(new Daily("z"), InsertOptions.builder().priority(2).build()).duplicate()).isTrue();
    }

    /** A kind unique by default. */
    public record Daily(String note) implements JobArgs {
        @Override
        public String kind() {
            return "daily";
        }

        @Override
        public InsertOptions insertOptions() {
            return InsertOptions.builder().unique(UniqueOptions.builder().byPeriod(Duration.ofDays(1)).build()).build();
        }
    }
}
