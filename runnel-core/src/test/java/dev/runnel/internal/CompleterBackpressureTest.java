package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.QueueExecutor;
import dev.runnel.RetryPolicy;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCompleteManyParams;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A completer that falls behind holds back its producers through their slots, not their threads:
 * the jobs' threads hand their outcomes over and end, the outcomes keep their jobs' places in the
 * slots (so that nothing more would be claimed), and each place frees as the completer takes the
 * outcome. The database is a stand-in whose completion write waits until the test lets it go.
 */
class CompleterBackpressureTest {
    record Noop(long n) implements JobArgs {
        @Override
        public String kind() {
            return "noop";
        }
    }

    private final CountDownLatch writesMayGo = new CountDownLatch(1);
    private final List<Long> written = new CopyOnWriteArrayList<>();
    private final List<Long> ran = new CopyOnWriteArrayList<>();

    /** A driver that only completes jobs, each write waiting for {@link #writesMayGo}. */
    private Driver completingDriver() {
        return (Driver) Proxy.newProxyInstance(Driver.class.getClassLoader(), new Class<?>[] {Driver.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("jobCompleteMany")) {
                        JobCompleteManyParams params = (JobCompleteManyParams) args[0];
                        writesMayGo.await();
                        long[] ids = Arrays.copyOf(params.ids(), params.size());
                        for (long id : ids) {
                            written.add(id);
                        }
                        return ids;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private static JobRow row(long id) {
        Instant now = Instant.now();
        return new JobRow(id, "noop", "{\"n\":" + id + "}", JobState.RUNNING, "q", 1, 1, 25, Optional.of(now),
                List.of("c"), now, now, Optional.empty(), List.of(), "{}", List.of());
    }

    @Test
    void whileTheCompleterIsBehindFinishedJobsHoldTheirSlotsNotTheirThreadsUntilItTakesTheirOutcomes()
            throws Exception {
        int batch = 2;
        int backlog = batch * 4;
        int jobs = 30;
        Completer completer = new Completer(completingDriver(), List.of(),
                new Completer.Config(batch, Duration.ofMillis(1), Duration.ofSeconds(5), "c"), Clock.systemUTC(),
                RetryPolicy.DEFAULT, RuntimeListeners.NONE);
        completer.start();
        JobRunner runner = new JobRunner(Map.of("noop", new WorkUnit<>("noop", Noop.class, job -> ran.add(job.id()))),
                Clock.systemUTC(), Duration.ZERO, RetryPolicy.DEFAULT, Hooks.NONE, ArgsCodec.DEFAULT);
        Slots slots = new Slots(5);
        JobLauncher launcher = new JobLauncher("q", false, new QueueExecutor.VirtualThreads(), slots, runner, completer,
                Clock.systemUTC(), ids -> new long[0]);
        try {
            for (long id = 1; id <= jobs; id++) {
                launcher.launch(row(id));
            }
            Eventually.until("every job ran and its thread left its slot", Duration.ofSeconds(30),
                    () -> ran.size() == jobs && slots.active() == 0);
            assertThat(written).as("the first batch's write is still waiting").isEmpty();
            // The completer took one batch (one or two outcomes) and is writing it; about a backlog
            // of outcomes wait without holding their slots (the count the threads read is a moment
            // old, by up to a thread each or an outcome being taken), and every later one holds its
            // job's place.
            assertThat(slots.held()).as("places held by outcomes the completer has not taken")
                    .isBetween(jobs - batch - backlog - slots.maxWorkers(), jobs - backlog + batch);
            assertThat(completer.behind()).isTrue();

            writesMayGo.countDown();
            Eventually.until("every place freed as the completer took the outcomes", Duration.ofSeconds(30),
                    () -> slots.held() == 0);
            Eventually.until("every outcome written", Duration.ofSeconds(30), () -> written.size() == jobs);
            assertThat(written).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, jobs).boxed().toList());
            assertThat(completer.behind()).isFalse();
        } finally {
            writesMayGo.countDown();
            completer.stop();
        }
    }
}
