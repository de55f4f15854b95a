package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DueQueuesTest {
    private static final long S = 1_000_000_000L;
    private static final List<String> QUEUES = List.of("a", "b", "c");

    @Test
    void safetyPollsWithinTheMaxAgeShareOneLookAndClaimOnlyWhereJobsAreDue() {
        AtomicInteger looks = new AtomicInteger();
        DueQueues due = new DueQueues(QUEUES, queues -> {
            looks.incrementAndGet();
            assertThat(queues).isEqualTo(QUEUES);
            return List.of("b");
        });
        assertThat(due.mayHaveJobs("a", 0)).isFalse();
        assertThat(due.mayHaveJobs("b", S)).isTrue();
        assertThat(due.mayHaveJobs("c", 4 * S)).isFalse();
        assertThat(looks).as("three polls within 5 s").hasValue(1);

        assertThat(due.mayHaveJobs("a", DueQueues.MAX_AGE_NANOS)).isFalse();
        assertThat(looks).as("once the look is 5 s old").hasValue(2);
    }

    @Test
    void aForgottenLookIsTakenAgain() {
        AtomicReference<List<String>> answer = new AtomicReference<>(List.of());
        AtomicInteger looks = new AtomicInteger();
        DueQueues due = new DueQueues(QUEUES, queues -> {
            looks.incrementAndGet();
            return answer.get();
        });
        assertThat(due.mayHaveJobs("a", 0)).isFalse();
        answer.set(List.of("a"));
        due.forget();
        assertThat(due.mayHaveJobs("a", 1)).as("looked again, not the stale answer").isTrue();
        assertThat(looks).hasValue(2);
    }

    @Test
    void aFailedLookClaimsAndTheNextPollLooksAgain() {
        AtomicInteger looks = new AtomicInteger();
        DueQueues due = new DueQueues(QUEUES, queues -> {
            if (looks.incrementAndGet() == 1) {
                throw new IllegalStateException("connection refused");
            }
            return List.of();
        });
        assertThat(due.mayHaveJobs("a", 0)).as("the claim meets the failure as claims do").isTrue();
        assertThat(due.mayHaveJobs("a", 1)).isFalse();
        assertThat(looks).hasValue(2);
    }

    @Test
    void aPollDueWhileAnotherProducerLooksClaimsRatherThanWait() throws Exception {
        CountDownLatch inLook = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DueQueues due = new DueQueues(QUEUES, queues -> {
            inLook.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return List.of();
        });
        AtomicReference<Boolean> first = new AtomicReference<>();
        Thread looking = Thread.ofPlatform().start(() -> first.set(due.mayHaveJobs("a", 0)));
        inLook.await();
        assertThat(due.mayHaveJobs("b", 0)).isTrue();
        release.countDown();
        looking.join();
        assertThat(first.get()).isFalse();
        assertThat(due.mayHaveJobs("b", 1)).as("the finished look answers now").isFalse();
    }

    @Test
    void aPollDueWhileAnOutdatedLookIsTakenAgainGoesByTheOutdatedOne() throws Exception {
        AtomicInteger looks = new AtomicInteger();
        CountDownLatch inLook = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DueQueues due = new DueQueues(QUEUES, queues -> {
            if (looks.incrementAndGet() == 2) {
                inLook.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            return List.of("c");
        });
        assertThat(due.mayHaveJobs("a", 0)).isFalse();
        Thread looking = Thread.ofPlatform().start(() -> due.mayHaveJobs("a", DueQueues.MAX_AGE_NANOS));
        inLook.await();
        assertThat(due.mayHaveJobs("b", DueQueues.MAX_AGE_NANOS)).as("not named by the last look").isFalse();
        assertThat(due.mayHaveJobs("c", DueQueues.MAX_AGE_NANOS)).as("named by it").isTrue();
        release.countDown();
        looking.join();
        assertThat(looks).hasValue(2);
    }
}
