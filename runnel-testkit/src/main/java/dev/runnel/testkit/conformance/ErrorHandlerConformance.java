package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.ErrorHandler;
import dev.runnel.InsertOptions;
import dev.runnel.JobCancel;
import dev.runnel.JobEvent;
import dev.runnel.JobFailure;
import dev.runnel.JobRow;
import dev.runnel.JobSnooze;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.testkit.EventRecorder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The error handler, end to end: it sees every kind of failure and its decision is what is stored. */
public abstract class ErrorHandlerConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();
    private final List<JobFailure> failures = new CopyOnWriteArrayList<>();

    private Runnel run(ErrorHandler handler, Worker<TestArgs> worker) {
        return started(client().queue("default", 10).listener(events).worker(TestArgs.class, worker)
                .errorHandler(failure -> {
                    failures.add(failure);
                    return handler.handle(failure);
                }));
    }

    private JobRow job(Runnel runnel, long id) {
        return runnel.jobGet(id).orElseThrow();
    }

    private static Worker<TestArgs> failing() {
        return job -> {
            throw new IllegalStateException("gateway said no to " + job.args().name());
        };
    }

    @Test
    void handlerChangesTheRetryDelay() {
        Runnel runnel = run(f -> ErrorHandler.Decision.retryAfter(Duration.ofMinutes(10)), failing());
        long id = runnel.insert(new TestArgs("a", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.scheduledAt()).isEqualTo(T0.plus(Duration.ofMinutes(10)));
        assertThat(row.lastError().orElseThrow().message()).contains("gateway said no to a");
        assertThat(failures).singleElement().satisfies(f -> {
            assertThat(f.cause()).isEqualTo(JobFailure.Cause.EXCEPTION);
            assertThat(f.job().id()).isEqualTo(id);
            assertThat(f.exception()).containsInstanceOf(IllegalStateException.class);
            assertThat(f.error().message()).contains("gateway said no to a");
        });
        // A retry still counts the attempt: out of attempts, the job is discarded whatever the decision.
        long last = runnel.insert(new TestArgs("b", 2), InsertOptions.builder().maxAttempts(1).build()).id();
        assertThat(events.await(last).type()).isEqualTo(JobEvent.Type.DISCARDED);
        assertThat(job(runnel, last).state()).isEqualTo(JobState.DISCARDED);
    }

    @Test
    void handlerDiscardsWithItsReasonAddedToTheError() {
        Runnel runnel = run(f -> ErrorHandler.Decision.discard("the customer closed the account"), failing());
        long id = runnel.insert(new TestArgs("a", 1)).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.DISCARDED);
        JobRow row = job(runnel, id);
        assertThat(row.state()).isEqualTo(JobState.DISCARDED);
        assertThat(row.finalizedAt()).contains(T0);
        assertThat(row.attempt()).isEqualTo(1);
        assertThat(row.errors()).singleElement().satisfies(e -> {
            assertThat(e.message()).contains("gateway said no to a")
                    .contains("discarded by the error handler: the customer closed the account");
            assertThat(e.trace()).contains("IllegalStateException");
        });
    }

    @Test
    void aHandlerThatThrowsOrReturnsNullGetsTheDefault() {
        Runnel runnel = run(f -> {
            if (f.job().args().contains("\"throws\"")) {
                throw new IllegalStateException("bug in the handler");
            }
            return null;
        }, failing());
        long throwing = runnel.insert(new TestArgs("throws", 1)).id();
        long nulling = runnel.insert(new TestArgs("null", 2)).id();
        for (long id : new long[] {throwing, nulling}) {
            assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
            JobRow row = job(runnel, id);
            assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
            // The default: attempt 1 waits 1 s, with at most 10% jitter either way.
            assertThat(row.scheduledAt()).isBetween(T0.plusMillis(900), T0.plusMillis(1100));
            assertThat(row.lastError().orElseThrow().message()).contains("gateway said no");
        }
    }

    @Test
    void handlerUsingTheDefaultKeepsTheWorkersOwnDelay() {
        Runnel runnel = run(f -> ErrorHandler.Decision.useDefault(), new Worker<>() {
            @Override
            public void work(dev.runnel.Job<TestArgs> job) {
                throw new IllegalStateException("again");
            }

            @Override
            public java.util.Optional<Duration> retryDelay(dev.runnel.Job<TestArgs> job) {
                return java.util.Optional.of(Duration.ofMinutes(7));
            }
        });
        long id = runnel.insert(new TestArgs("a", 1)).id();
        events.await(id);
        assertThat(job(runnel, id).scheduledAt()).isEqualTo(T0.plus(Duration.ofMinutes(7)));
    }

    @Test
    void handlerSeesTimeoutsUndecodableArgsAndUnknownKinds() {
        Map<JobFailure.Cause, JobFailure> byCause = new ConcurrentHashMap<>();
        Runnel runnel = started(client().queue("default", 10).listener(events).jobTimeout(Duration.ofMillis(100))
                .worker(TestArgs.class, job -> Thread.sleep(30_000))
                .errorHandler(f -> {
                    byCause.put(f.cause(), f);
                    return switch (f.cause()) {
                        case UNDECODABLE_ARGS -> ErrorHandler.Decision.retryAfter(Duration.ofHours(1));
                        case UNKNOWN_KIND -> ErrorHandler.Decision.discard("nobody here works it");
                        default -> ErrorHandler.Decision.useDefault();
                    };
                }));
        long slow = runnel.insert(new TestArgs("slow", 1)).id();
        long orphan = runnel.insert(new OrphanArgs("nobody")).id();
        long undecodable = driver.jobInsertMany(List.of(new JobInsertParams("test_job",
                "{\"name\":\"x\",\"value\":\"not a number\"}", "default", 1, JobState.AVAILABLE, T0, T0, 25, List.of(),
                "{}"))).getFirst().id();

        assertThat(events.await(slow).type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow timedOut = job(runnel, slow);
        assertThat(timedOut.scheduledAt()).isBetween(T0.plusMillis(900), T0.plusMillis(1100));
        assertThat(byCause.get(JobFailure.Cause.TIMEOUT).error().message()).contains("timed out after 100 ms");
        assertThat(byCause.get(JobFailure.Cause.TIMEOUT).exception()).containsInstanceOf(InterruptedException.class);

        assertThat(events.await(orphan).type()).isEqualTo(JobEvent.Type.DISCARDED);
        assertThat(job(runnel, orphan).lastError().orElseThrow().message()).contains("no worker")
                .contains("discarded by the error handler: nobody here works it");
        assertThat(byCause.get(JobFailure.Cause.UNKNOWN_KIND).exception()).isEmpty();

        assertThat(events.await(undecodable).type()).isEqualTo(JobEvent.Type.FAILED);
        JobRow retried = job(runnel, undecodable);
        assertThat(retried.state()).as("retried, not discarded as by default").isEqualTo(JobState.RETRYABLE);
        assertThat(retried.scheduledAt()).isEqualTo(T0.plus(Duration.ofHours(1)));
        assertThat(retried.lastError().orElseThrow().message()).contains("could not be decoded");
        assertThat(byCause.get(JobFailure.Cause.UNDECODABLE_ARGS).exception()).isPresent();
    }

    @Test
    void snoozesCancelsAndStopsAreNotFailures() throws Exception {
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        Runnel runnel = run(f -> ErrorHandler.Decision.discard("should not be asked"), job -> {
            switch (job.args().name()) {
                case "snooze" -> throw new JobSnooze(Duration.ofMinutes(1));
                case "cancel" -> throw new JobCancel("not wanted");
                default -> {
                    started.countDown();
                    Thread.sleep(60_000);
                }
            }
        });
        long snoozed = runnel.insert(new TestArgs("snooze", 1)).id();
        long cancelled = runnel.insert(new TestArgs("cancel", 2)).id();
        long stopped = runnel.insert(new TestArgs("stop", 3)).id();
        assertThat(events.await(snoozed).type()).isEqualTo(JobEvent.Type.SNOOZED);
        assertThat(events.await(cancelled).type()).isEqualTo(JobEvent.Type.CANCELLED);
        started.await();
        runnel.stop(Duration.ZERO);
        assertThat(job(runnel, stopped).state()).isEqualTo(JobState.RETRYABLE);
        assertThat(failures).isEmpty();
    }
}
