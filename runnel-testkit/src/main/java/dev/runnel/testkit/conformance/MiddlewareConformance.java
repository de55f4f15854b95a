package dev.runnel.testkit.conformance;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertMiddleware;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertingJob;
import dev.runnel.JobEvent;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.testkit.EventRecorder;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Insert and work middleware, end to end: what an insert middleware changes is what is stored, on
 * every insert path; work middleware wraps the worker in order and sees what it throws.
 */
public abstract class MiddlewareConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();

    /** Stamps each job with a trace id, a tag, and moves it to queue {@code traced} at priority 3. */
    private static final InsertMiddleware TRACING = (jobs, next) -> {
        for (InsertingJob job : jobs) {
            job.metadata().put("traceparent", "00-trace-" + job.args().hashCode());
            job.tags().add("traced");
            job.queue("traced");
            job.priority(3);
        }
        next.proceed();
    };

    private List<JobRow> all(Runnel runnel) {
        return runnel.jobList(JobQuery.all());
    }

    @Test
    void insertMiddlewareChangesLandInTheStoredRowOnEveryInsertPath() throws Exception {
        List<Integer> batches = new CopyOnWriteArrayList<>();
        Runnel runnel = client().insertMiddleware((jobs, next) -> {
            batches.add(jobs.size());
            next.proceed();
        }).insertMiddleware(TRACING).build();
        long single = runnel.insert(new TestArgs("single", 1),
                InsertOptions.builder().metadata(Map.of("tenant", "acme")).tags("mine").build()).id();
        long[] many = InsertResult.ids(runnel.insertMany(List.of(InsertRequest.of(new TestArgs("many", 2)),
                InsertRequest.of(new TestArgs("many", 3)))));
        List<Long> expected = new ArrayList<>(List.of(single, many[0], many[1]));
        if (driver.supportsTransactionalInsert()) {
            try (Connection tx = newConnection(dir)) {
                tx.setAutoCommit(false);
                expected.add(runnel.insert(tx, new TestArgs("tx", 4)).id());
                tx.commit();
            }
            assertThat(batches).containsExactly(1, 2, 1);
        } else {
            assertThat(batches).containsExactly(1, 2);
        }
        List<JobRow> rows = all(runnel);
        assertThat(rows).extracting(JobRow::id).containsExactlyElementsOf(expected);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.queue()).isEqualTo("traced");
            assertThat(row.priority()).isEqualTo(3);
            assertThat(row.tags()).contains("traced");
            assertThat(row.metadata()).contains("traceparent").contains("00-trace-");
        });
        JobRow first = rows.getFirst();
        assertThat(first.tags()).containsExactly("mine", "traced");
        assertThat(first.metadata()).contains("\"tenant\":\"acme\"");
    }

    @Test
    void insertMiddlewareComposesInRegistrationOrderAndSeesTheIds() {
        List<String> calls = new CopyOnWriteArrayList<>();
        List<Long> seenIds = new CopyOnWriteArrayList<>();
        Runnel runnel = client().insertMiddleware((jobs, next) -> {
            calls.add("outer before");
            jobs.getFirst().metadata().put("order", "outer");
            for (long id : InsertResult.ids(next.proceed())) {
                seenIds.add(id);
            }
            calls.add("outer after");
        }).insertMiddleware((jobs, next) -> {
            calls.add("inner before, order=" + jobs.getFirst().metadata().get("order"));
            jobs.getFirst().metadata().put("order", "inner");
            next.proceed();
            calls.add("inner after");
        }).build();
        long[] ids = InsertResult.ids(runnel.insertMany(List.of(InsertRequest.of(new TestArgs("a", 1)), InsertRequest.of(new TestArgs("b", 2)))));
        assertThat(calls).containsExactly("outer before", "inner before, order=outer", "inner after", "outer after");
        assertThat(seenIds).containsExactly(ids[0], ids[1]);
        assertThat(runnel.jobGet(ids[0]).orElseThrow().metadata()).contains("\"order\":\"inner\"");
    }

    @Test
    void insertMiddlewareThatThrowsRefusesTheInsert() {
        Runnel runnel = client().insertMiddleware((jobs, next) -> {
            throw new IllegalStateException("no tenant in this context");
        }).build();
        assertThatThrownBy(() -> runnel.insert(new TestArgs("x", 1)))
                .isInstanceOf(IllegalStateException.class).hasMessage("no tenant in this context");
        assertThat(all(runnel)).isEmpty();
    }

    @Test
    void insertMiddlewareMustProceedOnceAndLetFailuresThrough() {
        Runnel skipping = client().insertMiddleware((jobs, next) -> {}).build();
        assertThatThrownBy(() -> skipping.insert(new TestArgs("x", 1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without calling next.proceed()");
        assertThat(all(skipping)).isEmpty();

        Runnel twice = client().insertMiddleware((jobs, next) -> {
            next.proceed();
            next.proceed();
        }).build();
        assertThatThrownBy(() -> twice.insert(new TestArgs("y", 2)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("twice");
        assertThat(all(twice)).hasSize(1);

        // The inner middleware adds metadata that cannot be encoded; the outer swallows the failure.
        Runnel swallowing = client().insertMiddleware((jobs, next) -> {
            try {
                next.proceed();
            } catch (IllegalArgumentException e) {
                // a bug: the caller must still not get ids for jobs that were not written
            }
        }).insertMiddleware((jobs, next) -> {
            jobs.getLast().metadata().put("handle", new Object());
            next.proceed();
        }).build();
        assertThatThrownBy(() -> swallowing.insertMany(List.of(InsertRequest.of(new TestArgs("z", 3)),
                InsertRequest.of(new TestArgs("z", 4)))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metadata of a job of kind test_job cannot be encoded as JSON");
        assertThat(all(swallowing)).as("only the job of the middleware that proceeded twice").hasSize(1);
    }

    @Test
    void insertMiddlewareChangesAreCheckedBeforeAnythingIsWritten() {
        Runnel badTag = client().insertMiddleware((jobs, next) -> {
            jobs.getLast().tags().add("not a tag");
            next.proceed();
        }).build();
        assertThatThrownBy(() -> badTag.insertMany(List.of(InsertRequest.of(new TestArgs("a", 1)),
                InsertRequest.of(new TestArgs("b", 2)))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tags must be word-like");
        assertThat(all(badTag)).isEmpty();
        Runnel badQueue = client().insertMiddleware((jobs, next) -> jobs.getFirst().queue(" spaced ")).build();
        assertThatThrownBy(() -> badQueue.insert(new TestArgs("c", 3))).hasMessageContaining("queue");
        Runnel badPriority = client().insertMiddleware((jobs, next) -> jobs.getFirst().priority(9)).build();
        assertThatThrownBy(() -> badPriority.insert(new TestArgs("d", 4))).hasMessageContaining("priority");
        Runnel late = client().insertMiddleware((jobs, next) -> {
            next.proceed();
            jobs.getFirst().queue("too-late");
        }).build();
        assertThatThrownBy(() -> late.insert(new TestArgs("e", 5)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("before next.proceed()");
        assertThat(all(late)).singleElement().satisfies(row -> assertThat(row.queue()).isEqualTo("default"));
    }

    @Test
    void workMiddlewareWrapsTheWorkerInOrderAndSeesItsException() {
        List<String> calls = new CopyOnWriteArrayList<>();
        Runnel runnel = started(client().queue("traced", 5).listener(events).insertMiddleware(TRACING)
                .workMiddleware((job, next) -> {
                    calls.add("outer before " + job.id() + " attempt " + job.attempt() + " queue " + job.queue()
                            + " trace " + job.metadata().get("traceparent"));
                    try {
                        next.proceed();
                        calls.add("outer after " + job.id());
                    } catch (Exception e) {
                        calls.add("outer saw " + e.getMessage());
                        throw e;
                    }
                })
                .workMiddleware((job, next) -> {
                    calls.add("inner before " + job.kind());
                    try {
                        next.proceed();
                    } finally {
                        calls.add("inner after");
                    }
                })
                .worker(TestArgs.class, job -> {
                    calls.add("worker " + job.args().value());
                    if (job.args().value() == 2) {
                        throw new IllegalStateException("card declined");
                    }
                }));
        TestArgs okArgs = new TestArgs("ok", 1);
        long ok = runnel.insert(okArgs).id();
        assertThat(events.await(ok).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(calls).containsExactly("outer before " + ok + " attempt 1 queue traced trace 00-trace-"
                + okArgs.hashCode(), "inner before test_job", "worker 1", "inner after", "outer after " + ok);
        calls.clear();
        long failing = runnel.insert(new TestArgs("fails", 2)).id();
        assertThat(events.await(failing).type()).isEqualTo(JobEvent.Type.FAILED);
        assertThat(calls).endsWith("worker 2", "inner after", "outer saw card declined");
        assertThat(runnel.jobGet(failing).orElseThrow().lastError().orElseThrow().message()).contains("card declined");
    }

    @Test
    void whatTheOutermostMiddlewareEndsInIsTheOutcome() {
        AtomicInteger runs = new AtomicInteger();
        Worker<TestArgs> worker = job -> {
            runs.incrementAndGet();
            throw new IllegalStateException("worker failed " + job.args().value());
        };
        Runnel runnel = started(client().queue("default", 5).listener(events).worker(TestArgs.class, worker)
                .workMiddleware((job, next) -> {
                    switch (((TestArgs) job.args()).name()) {
                        case "swallow" -> {
                            try {
                                next.proceed();
                            } catch (IllegalStateException e) {
                                // handled here: the attempt completes
                            }
                        }
                        case "skip" -> { }
                        case "own" -> throw new IllegalArgumentException("middleware refuses");
                        case "twice" -> {
                            try {
                                next.proceed();
                            } catch (IllegalStateException e) {
                                next.proceed();
                            }
                        }
                        default -> next.proceed();
                    }
                }));
        long swallowed = runnel.insert(new TestArgs("swallow", 1)).id();
        long skipped = runnel.insert(new TestArgs("skip", 2)).id();
        long own = runnel.insert(new TestArgs("own", 3)).id();
        long twice = runnel.insert(new TestArgs("twice", 4)).id();
        assertThat(events.await(swallowed).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(events.await(skipped).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(events.await(own).type()).isEqualTo(JobEvent.Type.FAILED);
        assertThat(events.await(twice).type()).isEqualTo(JobEvent.Type.FAILED);
        assertThat(runnel.jobGet(own).orElseThrow().lastError().orElseThrow().message()).contains("middleware refuses");
        assertThat(runnel.jobGet(twice).orElseThrow().lastError().orElseThrow().message())
                .contains("called next.proceed() twice");
        assertThat(runs).as("swallow and twice ran the worker once each; skip and own never").hasValue(2);
        assertThat(runnel.jobGet(skipped).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void aWorkMiddlewareSeesEveryJobOfEveryKindOnce() {
        List<Long> seen = new CopyOnWriteArrayList<>();
        Runnel runnel = started(client().queue("default", 20).listener(events).worker(TestArgs.class, job -> {})
                .workMiddleware((job, next) -> {
                    seen.add(job.id());
                    next.proceed();
                }));
        List<InsertRequest> requests = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            requests.add(InsertRequest.of(new TestArgs("n", i)));
        }
        long[] ids = InsertResult.ids(runnel.insertMany(requests));
        for (long id : ids) {
            events.await(id);
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(ids).boxed().toList());
    }
}
