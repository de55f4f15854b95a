package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.ErrorHandler;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RetryPolicy;
import dev.runnel.WorkMiddleware;
import dev.runnel.testlog.RecordingLogProvider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The MDC on a job's thread: set around its work, seen by worker, middleware and the runtime's lines, then gone. */
class JobRunnerMdcTest {
    record Charge(String card) implements JobArgs {
        @Override
        public String kind() {
            return "charge";
        }
    }

    private static final Map<String, String> EXPECTED = Map.of(Job.MDC_ID, "7", Job.MDC_KIND, "charge",
            Job.MDC_QUEUE, "payments", Job.MDC_ATTEMPT, "3");

    private final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

    private JobRunner runner(ErrorHandler handler) {
        WorkMiddleware middleware = (job, next) -> {
            seen.add(MDC.getCopyOfContextMap());
            next.proceed();
        };
        return new JobRunner(Map.of("charge", new WorkUnit<>("charge", Charge.class, job -> {
            seen.add(MDC.getCopyOfContextMap());
            LoggerFactory.getLogger("app.ChargeWorker").info("charging {}", job.args().card());
            if (job.args().card().equals("declined")) {
                throw new IllegalStateException("card declined");
            }
        })), Clock.systemUTC(), Duration.ZERO, RetryPolicy.DEFAULT, new Hooks(List.of(), List.of(middleware), handler),
                ArgsCodec.DEFAULT);
    }

    private static JobRow row(String card) {
        Instant now = Instant.now();
        return new JobRow(7, "charge", "{\"card\":\"" + card + "\"}", JobState.RUNNING, "payments", 1, 3, 25,
                Optional.of(now), List.of("c"), now, now, Optional.empty(), List.of(), "{}", List.of());
    }

    /** Runs the job on a virtual thread, as the producer does; returns the MDC left on that thread. */
    private static Map<String, String> runOnJobThread(JobRunner runner, JobRow row) throws InterruptedException {
        AtomicReference<Map<String, String>> after = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            MDC.put("request", "kept");
            runner.run(new RunningJob(row));
            after.set(MDC.getCopyOfContextMap());
        }).join();
        return after.get();
    }

    @Test
    void theWorkerAndItsMiddlewareSeeTheJobInTheMdcAndNothingIsLeftAfter() throws Exception {
        Map<String, String> after = runOnJobThread(runner(null), row("ok"));
        assertThat(seen).hasSize(2).allSatisfy(mdc -> assertThat(mdc).containsAllEntriesOf(EXPECTED));
        assertThat(RecordingLogProvider.LINES).filteredOn(l -> l.message().equals("charging ok"))
                .singleElement().satisfies(l -> assertThat(l.mdc()).containsAllEntriesOf(EXPECTED));
        assertThat(after).containsOnlyKeys("request");
    }

    @Test
    void theRuntimesOwnLinesDuringWorkCarryTheJob() throws Exception {
        runOnJobThread(runner(failure -> {
            throw new IllegalStateException("handler bug");
        }), row("declined"));
        assertThat(RecordingLogProvider.LINES).filteredOn(l -> l.message().startsWith("the error handler threw"))
                .singleElement().satisfies(l -> assertThat(l.mdc()).containsAllEntriesOf(EXPECTED));
    }
}
