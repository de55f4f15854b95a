package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RetryPolicy;
import dev.runnel.Worker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What a worker sees of its attempt's deadline, and the run time its outcome carries. */
class JobRunnerDeadlineTest {
    record Nap(long millis) implements JobArgs {
        @Override
        public String kind() {
            return "nap";
        }
    }

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00.123Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private final AtomicReference<Optional<Instant>> seen = new AtomicReference<>();

    private JobRunner runner(Duration defaultTimeout, Optional<Duration> ownTimeout) {
        Worker<Nap> worker = new Worker<>() {
            @Override
            public void work(dev.runnel.Job<Nap> job) throws Exception {
                seen.set(job.deadline());
                Thread.sleep(job.args().millis());
            }

            @Override
            public Optional<Duration> timeout(dev.runnel.Job<Nap> job) {
                return ownTimeout;
            }
        };
        return new JobRunner(Map.of("nap", new WorkUnit<>("nap", Nap.class, worker)), CLOCK, defaultTimeout,
                RetryPolicy.DEFAULT, Hooks.NONE, ArgsCodec.DEFAULT);
    }

    private static JobRow row(long millis) {
        return new JobRow(9, "nap", "{\"millis\":" + millis + "}", JobState.RUNNING, "default", 1, 1, 25,
                Optional.of(NOW), List.of("c"), NOW, NOW, Optional.empty(), List.of(), "{}", List.of());
    }

    @Test
    void theDeadlineIsTheStartOnTheClientsClockPlusTheDefaultTimeout() {
        runner(Duration.ofSeconds(30), Optional.empty()).run(new RunningJob(row(0)));
        assertThat(seen.get()).contains(NOW.plusSeconds(30));
    }

    @Test
    void aWorkersOwnTimeoutSetsTheDeadline() {
        runner(Duration.ofSeconds(30), Optional.of(Duration.ofMillis(1_500))).run(new RunningJob(row(0)));
        assertThat(seen.get()).contains(NOW.plusMillis(1_500));
    }

    @Test
    void anAttemptWithoutATimeoutHasNoDeadline() {
        runner(Duration.ZERO, Optional.empty()).run(new RunningJob(row(0)));
        assertThat(seen.get()).isEmpty();
    }

    @Test
    void theOutcomeCarriesHowLongTheAttemptRan() {
        Outcome outcome = runner(Duration.ZERO, Optional.empty()).run(new RunningJob(row(40)));
        assertThat(outcome.type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(outcome.runTime()).isGreaterThanOrEqualTo(Duration.ofMillis(40)).isLessThan(Duration.ofSeconds(10));
        assertThat(outcome.runTime()).isEqualTo(Duration.ofNanos(outcome.runNanos()));
    }
}
