package dev.runnel.json;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The buffers of a mapper's parsers and generators, shared by all threads: a fixed array of
 * slots, each empty or holding one buffer, that a thread takes from and gives back to with one
 * compare-and-set and no lock. Both scan from the first slot, so the few buffers in use at once
 * gather there and a scan is short. A buffer given back when every slot is full is dropped, one
 * asked for when every slot is empty is made.
 *
 * <p>Jackson's own pools keep buffers per thread (which a new virtual thread a job misses every
 * time), behind a lock (which the two carriers of a drain worker and its virtual threads fought
 * for: a twelfth of its CPU in a JFR profile), or in linked nodes (one allocated each time a
 * buffer goes back).
 */
final class SharedBufferPool implements RecyclerPool<BufferRecycler> {
    private static final long serialVersionUID = 1L;

    private final int capacity;
    private final transient AtomicReferenceArray<BufferRecycler> slots;

    SharedBufferPool(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.slots = new AtomicReferenceArray<>(capacity);
    }

    @Override
    public BufferRecycler acquirePooled() {
        for (int i = 0; i < capacity; i++) {
            BufferRecycler held = slots.get(i);
            if (held != null && slots.compareAndSet(i, held, null)) {
                return held;
            }
        }
        return new BufferRecycler();
    }

    @Override
    public void releasePooled(BufferRecycler recycler) {
        for (int i = 0; i < capacity; i++) {
            if (slots.get(i) == null && slots.compareAndSet(i, null, recycler)) {
                return;
            }
        }
    }

    @Override
    public int pooledCount() {
        int count = 0;
        for (int i = 0; i < capacity; i++) {
            if (slots.get(i) != null) {
                count++;
            }
        }
        return count;
    }

    @Override
    public boolean clear() {
        for (int i = 0; i < capacity; i++) {
            slots.set(i, null);
        }
        return true;
    }

    /** A pool read back from its serialized form starts empty: buffers are not serialized. */
    private Object readResolve() {
        return new SharedBufferPool(capacity);
    }
}
