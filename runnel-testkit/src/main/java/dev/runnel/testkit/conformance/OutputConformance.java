package dev.runnel.testkit.conformance;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.Job;
import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.testkit.EventRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A job's output: recorded by its worker, stored with its completion, read back from its row. */
public abstract class OutputConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();

    /** A result as a worker might record it. */
    public record Receipt(int sent, String to) {}

    private Runnel run(Worker<TestArgs> worker) {
        return started(client().queue("default", 10).listener(events).worker(TestArgs.class, worker));
    }

    private static JsonNode json(String text) {
        try {
            return JobJson.READER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    @Test
    void outputIsStoredWithTheCompletionAndReadBack() {
        Runnel runnel = run(job -> {
            job.recordOutput("a first try, replaced");
            job.recordOutput(new Receipt(3, "a@example.com"));
        });
        long id = runnel.insert(new TestArgs("a", 1), InsertOptions.builder().metadata(Map.of("tenant", "acme")).build()).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        JobRow row = runnel.jobGet(id).orElseThrow();
        assertThat(row.state()).isEqualTo(JobState.COMPLETED);
        assertThat(row.finalizedAt()).contains(T0);
        assertThat(json(row.output().orElseThrow())).isEqualTo(json("{\"sent\":3,\"to\":\"a@example.com\"}"));
        assertThat(json(row.metadata()).get("tenant").asText()).as("the rest of the metadata is kept").isEqualTo("acme");
    }

    @Test
    void completionsWithAndWithoutOutputShareAFlush() {
        Runnel runnel = started(client().queue("default", 50).listener(events)
                .completerFlushInterval(Duration.ofMillis(50))
                .worker(TestArgs.class, job -> {
                    if (job.args().value() % 2 == 0) {
                        job.recordOutput(Map.of("value", job.args().value()));
                    }
                }));
        List<InsertRequest> requests = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            requests.add(InsertRequest.of(new TestArgs("n", i)));
        }
        long[] ids = InsertResult.ids(runnel.insertMany(requests));
        for (int i = 0; i < ids.length; i++) {
            assertThat(events.await(ids[i]).type()).isEqualTo(JobEvent.Type.COMPLETED);
            JobRow row = runnel.jobGet(ids[i]).orElseThrow();
            assertThat(row.state()).isEqualTo(JobState.COMPLETED);
            assertThat(row.finalizedAt()).contains(T0);
            if (i % 2 == 0) {
                assertThat(json(row.output().orElseThrow()).get("value").asInt()).isEqualTo(i);
            } else {
                assertThat(row.output()).isEmpty();
                assertThat(json(row.metadata())).isEqualTo(json("{}"));
            }
        }
    }

    @Test
    void outputThatIsTooLargeOrNotJsonIsRefusedToTheWorker() {
        List<String> refusals = new CopyOnWriteArrayList<>();
        String fits = "x".repeat(Job.MAX_OUTPUT_BYTES - 2); // with its quotes, exactly the limit
        Runnel runnel = run(job -> {
            for (Object bad : new Object[] {fits + "x", new Object(), "nul \0 inside", null}) {
                try {
                    job.recordOutput(bad);
                } catch (IllegalArgumentException e) {
                    refusals.add(e.getMessage());
                }
            }
            job.recordOutput(fits);
        });
        long id = runnel.insert(new TestArgs("a", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(refusals).hasSize(4);
        assertThat(refusals.get(0)).contains("is " + (Job.MAX_OUTPUT_BYTES + 1) + " bytes as JSON")
                .contains("more than the " + Job.MAX_OUTPUT_BYTES + " allowed");
        assertThat(refusals.get(1)).contains("cannot be encoded as JSON");
        assertThat(refusals.get(2)).contains("NUL");
        assertThat(refusals.get(3)).contains("must not be null");
        assertThat(runnel.jobGet(id).orElseThrow().output()).contains("\"" + fits + "\"");
    }

    @Test
    void anAttemptThatDoesNotCompleteRecordsNoOutput() {
        AtomicInteger attempts = new AtomicInteger();
        Runnel runnel = run(job -> {
            job.recordOutput(Map.of("attempt", job.attempt()));
            if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("first attempt fails after recording");
            }
        });
        long id = runnel.insert(new TestArgs("a", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow failed = runnel.jobGet(id).orElseThrow();
        assertThat(failed.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(failed.output()).isEmpty();
        clock.set(failed.scheduledAt());
        assertThat(events.await(id, 2).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(json(runnel.jobGet(id).orElseThrow().output().orElseThrow()).get("attempt").asInt()).isEqualTo(2);
    }

    @Test
    void anAtMostOnceJobRecordsOutputWithoutFailing() {
        Runnel runnel = started(client().queue("once", 5, Runnel.Delivery.AT_MOST_ONCE).listener(events)
                .worker(TestArgs.class, job -> job.recordOutput(new Receipt(1, "b@example.com"))));
        long id = runnel.insert(new TestArgs("a", 1), InsertOptions.builder().queue("once").build()).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(runnel.jobGet(id)).as("no row to keep it on").isEmpty();
    }

    @Test
    void driverStoresOutputWithAnyOutcomeAndLeavesOtherMetadata() {
        Runnel runnel = inserter();
        long id = runnel.insert(new TestArgs("a", 1), InsertOptions.builder().metadata(Map.of("tenant", "acme")).build()).id();
        JobRow claimed = claimQueue("default", 1).getFirst();
        long[] written = driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, JobState.COMPLETED, null, T0,
                null, 0).withOutput("{\"rows\":[1,2,3],\"note\":\"caf\\u00e9\"}")));
        assertThat(written).containsExactly(id);
        JobRow row = runnel.jobGet(id).orElseThrow();
        assertThat(row.state()).isEqualTo(JobState.COMPLETED);
        assertThat(json(row.output().orElseThrow())).isEqualTo(json("{\"rows\":[1,2,3],\"note\":\"café\"}"));
        assertThat(json(row.metadata()).get("tenant").asText()).isEqualTo("acme");
    }
}
