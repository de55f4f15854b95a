package dev.runnel.bench;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongConsumer;

/**
 * A concurrent set of job ids as bits, in chunks created on demand: a million ids cost about
 * 128 KB, and marking one is a single compare-and-set.
 */
public final class IdBitmap {
    private static final int CHUNK_BITS = 1 << 16;
    private final ConcurrentHashMap<Long, AtomicLongArray> chunks = new ConcurrentHashMap<>();

    /** Marks {@code id}; returns false when it was already marked. */
    public boolean add(long id) {
        AtomicLongArray chunk = chunks.computeIfAbsent(id / CHUNK_BITS, k -> new AtomicLongArray(CHUNK_BITS / 64));
        int bit = (int) (id % CHUNK_BITS);
        long mask = 1L << (bit & 63);
        int word = bit >>> 6;
        while (true) {
            long old = chunk.get(word);
            if ((old & mask) != 0) {
                return false;
            }
            if (chunk.compareAndSet(word, old, old | mask)) {
                return true;
            }
        }
    }

    public boolean contains(long id) {
        AtomicLongArray chunk = chunks.get(id / CHUNK_BITS);
        if (chunk == null) {
            return false;
        }
        int bit = (int) (id % CHUNK_BITS);
        return (chunk.get(bit >>> 6) & (1L << (bit & 63))) != 0;
    }

    /** Calls {@code action} for every marked id, in no particular order. */
    public void forEach(LongConsumer action) {
        chunks.forEach((index, chunk) -> {
            for (int w = 0; w < chunk.length(); w++) {
                long bits = chunk.get(w);
                while (bits != 0) {
                    int b = Long.numberOfTrailingZeros(bits);
                    action.accept(index * CHUNK_BITS + w * 64L + b);
                    bits &= bits - 1;
                }
            }
        });
    }

    /** How many ids of this set {@code other} lacks: the audit's "missing". */
    public long countMissingIn(IdBitmap other) {
        long[] missing = {0};
        forEach(id -> {
            if (!other.contains(id)) {
                missing[0]++;
            }
        });
        return missing[0];
    }
}
