package dev.runnel.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedBufferPoolTest {
    @Test
    void aBufferGivenBackIsTheOneHandedOutNext() {
        SharedBufferPool pool = new SharedBufferPool(4);
        BufferRecycler first = pool.acquireAndLinkPooled();
        assertThat(pool.pooledCount()).isZero();
        first.releaseToPool();
        assertThat(pool.pooledCount()).isEqualTo(1);
        assertThat(pool.acquireAndLinkPooled()).isSameAs(first);
        assertThat(pool.pooledCount()).isZero();
    }

    @Test
    void theMappersParsesAndWritesReuseOneBuffer() throws Exception {
        var mapper = RunnelJson.newMapper();
        SharedBufferPool pool = (SharedBufferPool) mapper.getFactory()._getRecyclerPool();
        pool.clear();
        for (int i = 0; i < 100; i++) {
            JsonNode node = mapper.readTree("{\"n\":" + i + "}");
            assertThat(mapper.writeValueAsString(node)).isEqualTo("{\"n\":" + i + "}");
        }
        assertThat(pool.pooledCount()).isEqualTo(1);
    }

    @Test
    void aFullPoolDropsWhatIsGivenBackAndAnEmptyOneMakesANewBuffer() {
        SharedBufferPool pool = new SharedBufferPool(2);
        List<BufferRecycler> taken = List.of(pool.acquirePooled(), pool.acquirePooled(), pool.acquirePooled());
        assertThat(Set.copyOf(taken)).hasSize(3);
        taken.forEach(pool::releasePooled);
        assertThat(pool.pooledCount()).isEqualTo(2);
        assertThat(List.of(pool.acquirePooled(), pool.acquirePooled())).containsExactly(taken.get(0), taken.get(1));
        assertThat(pool.acquirePooled()).isNotIn(taken);
    }

    @Test
    void noBufferIsHeldByTwoThreadsAtOnce() throws Exception {
        SharedBufferPool pool = new SharedBufferPool(4);
        Set<BufferRecycler> held = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        AtomicInteger doubleHeld = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 20_000; i++) {
                    BufferRecycler recycler = pool.acquirePooled();
                    if (!held.add(recycler)) {
                        doubleHeld.incrementAndGet();
                    }
                    held.remove(recycler);
                    pool.releasePooled(recycler);
                }
            }));
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(doubleHeld).hasValue(0);
        assertThat(pool.pooledCount()).isBetween(1, 4);
    }

    @Test
    void aPoolReadBackFromItsSerializedFormStartsEmpty() throws Exception {
        SharedBufferPool pool = new SharedBufferPool(3);
        pool.releasePooled(new BufferRecycler());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(pool);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            SharedBufferPool read = (SharedBufferPool) in.readObject();
            assertThat(read.pooledCount()).isZero();
            BufferRecycler recycler = read.acquirePooled();
            read.releasePooled(recycler);
            assertThat(read.pooledCount()).isEqualTo(1);
        }
    }
}
