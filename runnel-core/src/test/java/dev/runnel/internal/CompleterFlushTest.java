package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RetryPolicy;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCompleteManyParams;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When the completer writes: an outcome that comes after a flush interval with nothing written
 * goes at once, alone; outcomes that come while a write is recent wait out the interval for
 * company and share one write. The database is a stand-in that records each write's jobs and time.
 */
class CompleterFlushTest {
    /** One write: the ids it completed and when it began ({@code nanoTime}). */
    private record Write(List<Long> ids, long atNanos) {}

    private final List<Write> writes = new CopyOnWriteArrayList<>();
    private final List<Long> heard = new CopyOnWriteArrayList<>();

    private Driver completingDriver() {
        return (Driver) Proxy.newProxyInstance(Driver.class.getClassLoader(), new Class<?>[] {Driver.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("jobCompleteMany")) {
                        JobCompleteManyParams params = (JobCompleteManyParams) args[0];
                        long[] ids = Arrays.copyOf(params.ids(), params.size());
                        writes.add(new Write(Arrays.stream(ids).boxed().toList(), System.nanoTime()));
                        return ids;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** What a test does with a running completer. */
    private interface Steps {
        void run(Completer completer) throws Exception;
    }

    /** Runs {@code steps} with a completer of this flush interval, stopped after them. */
    private void withCompleter(Duration flushInterval, Steps steps) throws Exception {
        Completer completer = new Completer(completingDriver(), List.of((JobEvent e) -> heard.add(e.job().id())),
                new Completer.Config(100, flushInterval, Duration.ofSeconds(5), "c"), Clock.systemUTC(),
                RetryPolicy.DEFAULT, RuntimeListeners.NONE);
        completer.start();
        try {
            steps.run(completer);
        } finally {
            completer.stop();
        }
    }

    private static Completer.Handed completed(long id) {
        Instant now = Instant.now();
        JobRow job = new JobRow(id, "noop", "{}", JobState.RUNNING, "q", 1, 1, 25, Optional.of(now), List.of("c"), now,
                now, Optional.empty(), List.of(), "{}", List.of());
        Outcome outcome = Outcome.completed(job, now, null, 0);
        return () -> outcome;
    }

    @Test
    void aLoneOutcomeIsWrittenAtOnceNotAfterTheFlushInterval() throws Exception {
        withCompleter(Duration.ofSeconds(30), completer -> {
            long submitted = System.nanoTime();
            completer.submit(completed(1));
            Eventually.until("the lone outcome stored and heard well before the 30 s interval", Duration.ofSeconds(10),
                    () -> heard.contains(1L));
            assertThat(writes).singleElement().satisfies(w -> {
                assertThat(w.ids()).containsExactly(1L);
                assertThat(w.atNanos() - submitted).isLessThan(TimeUnit.SECONDS.toNanos(10));
            });
        });
    }

    @Test
    void outcomesThatComeSoonAfterAWriteWaitForCompanyAndShareOneWrite() throws Exception {
        Duration interval = Duration.ofSeconds(2);
        withCompleter(interval, completer -> {
            completer.submit(completed(1));
            Eventually.until("the first outcome written alone, at once", Duration.ofSeconds(10),
                    () -> writes.size() == 1);
            long firstWrite = writes.getFirst().atNanos();
            for (long id = 2; id <= 5; id++) {
                completer.submit(completed(id));
            }
            Eventually.until("every outcome stored and heard", Duration.ofSeconds(30), () -> heard.size() == 5);
            assertThat(writes).hasSize(2);
            assertThat(writes.get(1).ids()).containsExactlyInAnyOrder(2L, 3L, 4L, 5L);
            assertThat(writes.get(1).atNanos() - firstWrite)
                    .as("the four waited out the flush interval begun by the first of them")
                    .isGreaterThanOrEqualTo(interval.toNanos() * 3 / 4);
        });
    }

    @Test
    void anOutcomeAfterAQuietIntervalIsWrittenAtOnceAgain() throws Exception {
        Duration interval = Duration.ofSeconds(1);
        withCompleter(interval, completer -> {
            completer.submit(completed(1));
            Eventually.until("the first outcome written", Duration.ofSeconds(10), () -> writes.size() == 1);
            Thread.sleep(interval.toMillis() * 2);
            long submitted = System.nanoTime();
            completer.submit(completed(2));
            Eventually.until("the second outcome written", Duration.ofSeconds(10), () -> writes.size() == 2);
            assertThat(writes.get(1).ids()).containsExactly(2L);
            assertThat(writes.get(1).atNanos() - submitted)
                    .as("written without waiting out the interval")
                    .isLessThan(interval.toNanos() * 2 / 3);
        });
    }
}
