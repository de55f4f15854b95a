package dev.runnel.bench.jmh;

import dev.runnel.JobArgs;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RetryPolicy;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.Times;
import dev.runnel.internal.Completer;
import dev.runnel.internal.ArgsCodec;
import dev.runnel.internal.Hooks;
import dev.runnel.internal.JobRunner;
import dev.runnel.internal.Outcome;
import dev.runnel.internal.RunningJob;
import dev.runnel.internal.WorkUnit;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The JVM-side cost per job of the hot path, without a database: decoding a claimed batch's args
 * and dispatching each job to its worker (JobRunner), and turning a batch of outcomes into the
 * completion statement's parameters. Figures are per job (a batch of 100 per invocation).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotPathBenchmark {
    static final int BATCH = 100;

    /** Args shaped like a typical small job. */
    public record Receipt(long orderId, String email, int cents) implements JobArgs {
        @Override
        public String kind() {
            return "receipt";
        }
    }

    private JobRunner runner;
    private List<JobRow> claimed;
    private List<Outcome> outcomes;

    @Setup
    public void setUp() {
        runner = new JobRunner(Map.of("receipt", new WorkUnit<>("receipt", Receipt.class, job -> {})),
                Clock.systemUTC(), Duration.ZERO, RetryPolicy.DEFAULT, Hooks.NONE, ArgsCodec.DEFAULT);
        claimed = new ArrayList<>();
        Instant now = Instant.now();
        for (int i = 0; i < BATCH; i++) {
            claimed.add(new JobRow(i + 1, "receipt", "{\"orderId\":" + (1000 + i) + ",\"email\":\"c" + i
                    + "@example.com\",\"cents\":1999}", JobState.RUNNING, "default", 1, 1, 25, Optional.of(now),
                    List.of("client-1"), now, now, Optional.empty(), List.of(), "{}", List.of()));
        }
        outcomes = new ArrayList<>();
        for (JobRow row : claimed) {
            outcomes.add(runner.run(new RunningJob(row)));
        }
    }

    /** Decode each claimed job's args and run its (no-op) worker, as a producer's job thread does. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void decodeAndDispatch(Blackhole bh) {
        for (JobRow row : claimed) {
            bh.consume(runner.run(new RunningJob(row)));
        }
    }

    /** Turn a batch of plain completions into the arrays the completion statement takes. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public JobCompleteManyParams encodeCompletions() {
        return Completer.completions(outcomes, "bench");
    }
}
