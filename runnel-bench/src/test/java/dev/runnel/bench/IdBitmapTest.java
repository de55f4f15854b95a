package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class IdBitmapTest {
    @Test
    void marksOnceAndCountsWhatTheOtherLacks() {
        IdBitmap inserted = new IdBitmap();
        IdBitmap worked = new IdBitmap();
        LongStream.rangeClosed(1, 200_000).forEach(inserted::add);
        assertThat(worked.add(5)).isTrue();
        assertThat(worked.add(5)).isFalse();
        LongStream.rangeClosed(6, 200_000).forEach(worked::add);
        assertThat(inserted.countMissingIn(worked)).isEqualTo(4); // 1..4
        assertThat(worked.contains(65_536 * 3 + 7)).isTrue();
        assertThat(worked.contains(4)).isFalse();
    }

    @Test
    void concurrentMarksCountEachIdOnce() throws Exception {
        IdBitmap ids = new IdBitmap();
        java.util.concurrent.atomic.AtomicLong fresh = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (long id = 1; id <= 50_000; id++) {
                    if (ids.add(id)) {
                        fresh.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(fresh.get()).isEqualTo(50_000);
        long[] count = {0};
        ids.forEach(id -> count[0]++);
        assertThat(count[0]).isEqualTo(50_000);
    }
}
