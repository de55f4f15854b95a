package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.Batch;
import dev.runnel.BatchResult;
import dev.runnel.BatchRow;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobDiscard;
import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.driver.JobJson;
import dev.runnel.testkit.Await;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Batches: counts kept by every outcome of their jobs, and callbacks inserted exactly once, by the
 * write that makes their condition first hold, with the counts in their args.
 */
public abstract class BatchConformance extends DriverConformance {
    /** A batch's callback: records the counts it was given. */
    public record BatchDone(String which) implements JobArgs {
        @Override
        public String kind() {
            return "batch_done";
        }
    }

    private final List<String> callbacks = new CopyOnWriteArrayList<>();
    private final Map<String, JsonNode> counts = new ConcurrentHashMap<>();

    @BeforeEach
    void needsLinks() {
        org.junit.jupiter.api.Assumptions.assumeTrue(driver.supportsLinks(), driver.name() + " stores no batches");
    }

    private Runnel worker(dev.runnel.Worker<TestArgs> work) {
        return started(client().queue("default", 20).worker(TestArgs.class, work).worker(BatchDone.class, job -> {
            counts.put(job.args().which(), JobJson.readTree(job.row().args()).get("batch"));
            callbacks.add(job.args().which()); // last: the tests wait on it, then read the counts
        }));
    }

    private static Batch allThree() {
        return Batch.builder().name("import")
                .onSuccess(new BatchDone("success")).onComplete(new BatchDone("complete")).onDiscard(new BatchDone("discard"))
                .build();
    }

    private static List<InsertRequest> jobs(int n) {
        List<InsertRequest> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(InsertRequest.of(new TestArgs("row", i)));
        }
        return jobs;
    }

    private long callbackJobs(Runnel runnel) {
        return runnel.jobList(JobQuery.all().kinds("batch_done").limit(100)).size();
    }

    @Test
    void whenEveryJobCompletesSuccessAndCompleteRunOnceWithTheCounts() {
        Runnel runnel = worker(job -> {});
        BatchResult batch = runnel.batches().insert(allThree(), jobs(10));
        assertThat(batch.jobs()).hasSize(10);
        Await.until("both callbacks ran", () -> callbacks.size() == 2);
        assertThat(callbacks).containsExactlyInAnyOrder("success", "complete");
        JsonNode c = counts.get("complete");
        assertThat(c.get("id").asLong()).isEqualTo(batch.id());
        assertThat(c.get("total").asInt()).isEqualTo(10);
        assertThat(c.get("completed").asInt()).isEqualTo(10);
        BatchRow row = runnel.batches().get(batch.id()).orElseThrow();
        assertThat(row.total()).isEqualTo(10);
        assertThat(row.completed()).isEqualTo(10);
        assertThat(row.isComplete()).isTrue();
        assertThat(row.successJob()).isPresent();
        assertThat(row.completeJob()).isPresent();
        assertThat(row.discardJob()).isEmpty();
        assertThat(row.name()).contains("import");
        assertThat(callbackJobs(runnel)).isEqualTo(2);
        assertThat(runnel.batches().list(10)).extracting(BatchRow::id).containsExactly(batch.id());
    }

    @Test
    void aDiscardedJobRunsTheDiscardCallbackAndCompleteButNotSuccess() {
        Runnel runnel = worker(job -> {
            if (job.args().value() == 3 && job.row().attempt() == 1) {
                throw new JobDiscard("bad row");
            }
        });
        BatchResult batch = runnel.batches().insert(allThree(), jobs(10));
        Await.until("complete ran", () -> callbacks.contains("complete"));
        Await.until("discard ran", () -> callbacks.contains("discard"));
        assertThat(callbacks).containsExactlyInAnyOrder("discard", "complete");
        assertThat(counts.get("complete").get("discarded").asInt()).isEqualTo(1);
        assertThat(counts.get("complete").get("completed").asInt()).isEqualTo(9);
        BatchRow row = runnel.batches().get(batch.id()).orElseThrow();
        assertThat(row.discarded()).isEqualTo(1);
        assertThat(row.successJob()).isEmpty();

        // A retried discarded job leaves the count; once it completes, the batch succeeds after all.
        // (The worker may take it again before retry reads it back: it is no longer discarded.)
        long bad = batch.jobs().get(3).id();
        assertThat(runnel.jobs().retry(bad).state()).isNotEqualTo(JobState.DISCARDED);
        Await.until("success ran", () -> callbacks.contains("success"));
        BatchRow after = runnel.batches().get(batch.id()).orElseThrow();
        assertThat(after.discarded()).isZero();
        assertThat(after.completed()).isEqualTo(10);
        assertThat(after.successJob()).isPresent();
    }

    @Test
    void aRunningJobAddsJobsToItsBatchAndTheCallbackWaitsForThem() {
        Runnel[] self = new Runnel[1];
        self[0] = worker(job -> {
            if (job.args().name().equals("seed")) {
                long batch = self[0].jobs().links(job.id()).orElseThrow().batchId().orElseThrow();
                self[0].batches().add(batch, jobs(5));
            }
        });
        BatchResult batch = self[0].batches().insert(Batch.builder().onSuccess(new BatchDone("success")).build(),
                List.of(InsertRequest.of(new TestArgs("seed", 0))));
        Await.until("success ran", () -> callbacks.contains("success"));
        assertThat(counts.get("success").get("total").asInt()).isEqualTo(6);
        assertThat(self[0].batches().get(batch.id()).orElseThrow().completed()).isEqualTo(6);
        assertThat(callbackJobs(self[0])).isEqualTo(1);
    }

    @Test
    void threeClientsFinishingOneBatchRunItsCallbackOnce() {
        Runnel first = worker(job -> {});
        for (int i = 0; i < 2; i++) {
            started(client().queue("default", 20).worker(TestArgs.class, job -> {}).worker(BatchDone.class, job -> {
                callbacks.add(job.args().which());
            }));
        }
        BatchResult batch = first.batches().insert(allThree(), jobs(300));
        Await.until("the batch completed", () -> first.batches().get(batch.id()).orElseThrow().isComplete());
        Await.until("the callbacks ran", Duration.ofSeconds(20), () -> callbacks.size() >= 2);
        assertThat(callbackJobs(first)).isEqualTo(2);
        assertThat(callbacks).containsExactlyInAnyOrder("success", "complete");
    }

    @Test
    void cancellingAndDeletingJobsFinishesTheBatch() {
        Runnel inserter = inserter();
        BatchResult batch = inserter.batches().insert(allThree(), jobs(3));
        inserter.jobs().cancel(batch.jobs().get(0).id());
        inserter.jobs().delete(batch.jobs().get(1).id());
        inserter.jobs().delete(batch.jobs().get(0).id()); // final already: counted once
        BatchRow row = inserter.batches().get(batch.id()).orElseThrow();
        assertThat(row.cancelled()).isEqualTo(1);
        assertThat(row.deleted()).isEqualTo(1);
        assertThat(row.unfinished()).isEqualTo(1);
        inserter.jobs().cancel(batch.jobs().get(2).id());
        row = inserter.batches().get(batch.id()).orElseThrow();
        assertThat(row.isComplete()).isTrue();
        assertThat(row.completeJob()).isPresent();
        assertThat(row.successJob()).isEmpty();
        assertThat(callbackJobs(inserter)).isEqualTo(1);
    }

    @Test
    void aBatchInsertedInATransactionExistsOnlyIfItCommits() throws Exception {
        assumeTransactionalInsert();
        Runnel inserter = inserter();
        try (Connection tx = newConnection(dir)) {
            tx.setAutoCommit(false);
            BatchResult gone = inserter.batches().insert(tx, allThree(), jobs(2));
            tx.rollback();
            assertThat(inserter.batches().get(gone.id())).isEmpty();
            BatchResult kept = inserter.batches().insert(tx, allThree(), jobs(2));
            tx.commit();
            assertThat(inserter.batches().get(kept.id()).orElseThrow().total()).isEqualTo(2);
        }
    }

    @Test
    void badBatchesAreRefusedBeforeAnythingIsWritten() {
        Runnel inserter = inserter();
        assertThatThrownBy(() -> inserter.batches().insert(allThree(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one job");
        assertThatThrownBy(() -> inserter.batches().add(987_654_321L, jobs(1)))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("no batch 987654321");
        assertThatThrownBy(() -> Batch.builder().onSuccess(new BatchDone("x"),
                InsertOptions.builder().scheduledAt(T0.plusSeconds(60)).build()))
                .isInstanceOf(IllegalArgumentException.class);
        Runnel atMostOnce = Runnel.builder().driver(driver).clock(clock)
                .queue("fast", 1, Runnel.Delivery.AT_MOST_ONCE).worker(TestArgs.class, job -> {}).build();
        assertThatThrownBy(() -> atMostOnce.batches().insert(allThree(),
                List.of(new InsertRequest(new TestArgs("a", 0), InsertOptions.builder().queue("fast").build()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most once");
        assertThat(inserter.batches().list(10)).isEmpty();
        assertThat(inserter.jobList(JobQuery.all().limit(10))).isEmpty();
    }
}
