package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class DueQueuesTest {
    private static final List<String> QUEUES = List.of("a", "b", "c");
    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final AtomicBoolean listening = new AtomicBoolean(true);
    private final AtomicInteger looks = new AtomicInteger();
    private final List<String> signalled = new CopyOnWriteArrayList<>();

    private DueQueues dueQueues(Function<List<String>, List<String>> lookUp) {
        return new DueQueues(INTERVAL, QUEUES, queues -> {
            looks.incrementAndGet();
            assertThat(queues).isEqualTo(QUEUES);
            return lookUp.apply(queues);
        }, listening::get, signalled::add);
    }

    @Test
    void oneLookForEveryQueueSignalsOnlyTheQueuesWithJobsDue() {
        DueQueues due = dueQueues(queues -> List.of("b"));
        assertThat(due.tick()).as("nothing more to do until the next interval").isFalse();
        assertThat(looks).hasValue(1);
        assertThat(signalled).containsExactly("b");
    }

    @Test
    void aFailedLookSignalsEveryQueueSoThatTheirClaimsMeetTheFailure() {
        DueQueues due = dueQueues(queues -> {
            throw new IllegalStateException("connection refused");
        });
        due.tick();
        assertThat(signalled).containsExactlyElementsOf(QUEUES);
    }

    @Test
    void whileTheClientDoesNotListenItNeitherLooksNorSignals() {
        DueQueues due = dueQueues(queues -> QUEUES);
        listening.set(false);
        due.tick();
        assertThat(looks).hasValue(0);
        assertThat(signalled).isEmpty();
        listening.set(true);
        due.tick();
        assertThat(signalled).containsExactlyElementsOf(QUEUES);
    }

    @Test
    void itLooksOnceAnIntervalWithUpToATenthOfItAsJitter() {
        DueQueues due = dueQueues(queues -> List.of());
        for (int i = 0; i < 200; i++) {
            assertThat(due.waitNanos()).isBetween(INTERVAL.toNanos(), INTERVAL.toNanos() * 11 / 10);
        }
    }

    @Test
    void startedItLooksAndSignalsOnItsOwnThreadUntilStopped() throws Exception {
        DueQueues due = new DueQueues(Duration.ofMillis(20), QUEUES, queues -> {
            looks.incrementAndGet();
            return List.of("c");
        }, listening::get, signalled::add);
        due.start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (looks.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } finally {
            due.stop();
        }
        int after = looks.get();
        assertThat(after).isGreaterThanOrEqualTo(3);
        assertThat(signalled).containsOnly("c");
        Thread.sleep(100);
        assertThat(looks).as("no look after the stop").hasValue(after);
    }
}
