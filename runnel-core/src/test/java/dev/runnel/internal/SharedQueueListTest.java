package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.QueueRow;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SharedQueueListTest {
    private static final long MS = 1_000_000;

    @Test
    void producersAskingWithinTheMaxAgeShareOneReadAndAnOlderReadingIsReadAgain() {
        AtomicLong now = new AtomicLong(0);
        AtomicInteger reads = new AtomicInteger();
        List<QueueRow> rows = List.of();
        SharedQueueList list = new SharedQueueList(() -> {
            reads.incrementAndGet();
            return rows;
        }, 1_000 * MS, now::get);

        for (int producer = 0; producer < 50; producer++) {
            assertThat(list.get()).isSameAs(rows);
            now.addAndGet(10 * MS);
        }
        assertThat(reads).as("50 producers within 0.5 s").hasValue(1);

        now.set(1_000 * MS);
        list.get();
        assertThat(reads).as("once the reading is a second old").hasValue(2);
    }

    @Test
    void aProducerFindingAStaleReadingWhileAnotherReadsTakesTheStaleOneInsteadOfWaiting() throws Exception {
        AtomicLong now = new AtomicLong(0);
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch inRead = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<QueueRow> first = List.of();
        List<QueueRow> second = new java.util.ArrayList<>();
        SharedQueueList list = new SharedQueueList(() -> {
            if (reads.incrementAndGet() == 2) {
                inRead.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return second;
            }
            return first;
        }, 1_000 * MS, now::get);
        list.get();
        now.set(2_000 * MS);
        AtomicReference<List<QueueRow>> slow = new AtomicReference<>();
        Thread reader = Thread.ofVirtual().start(() -> slow.set(list.get()));
        inRead.await();
        assertThat(list.get()).as("while the other reads: the stale reading, at once").isSameAs(first);
        release.countDown();
        reader.join();
        assertThat(slow.get()).isSameAs(second);
        assertThat(list.get()).isSameAs(second);
        assertThat(reads).hasValue(2);
    }

    @Test
    void aFailedReadThrowsToItsCallerAndTheNextCallReadsAgain() {
        AtomicInteger reads = new AtomicInteger();
        SharedQueueList list = new SharedQueueList(() -> {
            if (reads.incrementAndGet() == 1) {
                throw new IllegalStateException("database down");
            }
            return List.of();
        }, 1_000 * MS, () -> 0);
        assertThatThrownBy(list::get).hasMessage("database down");
        assertThat(list.get()).isEmpty();
        assertThat(reads).hasValue(2);
    }
}
