package dev.runnel.redis;

import dev.runnel.driver.Times;
import java.time.Instant;

/**
 * Values as the function library stores them: times as decimal microseconds since the epoch, and
 * the sortable form of a time that orders a queue's available jobs (see the library's header).
 */
final class RedisEncoding {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RedisEncoding() {}

    static String micros(Instant instant) {
        return Long.toString(Times.toMicros(instant));
    }

    /**
     * {@code micros} XOR 2^63 as 16 lowercase hex digits: compared as bytes, these order exactly as
     * the signed times do (a time before 1970 first), which a double score could not for every
     * microsecond.
     */
    static String sortable(long micros) {
        long v = micros ^ Long.MIN_VALUE;
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX[(int) (v & 0xf)];
            v >>>= 4;
        }
        return new String(out);
    }

    static String sortable(Instant instant) {
        return sortable(Times.toMicros(instant));
    }

    /** A stored time, or null for an absent one. */
    static Instant instant(Object micros) {
        return micros == null ? null : Times.fromMicros(Long.parseLong(micros.toString()));
    }

    /** Bytes as lowercase hex: a unique key in the library's {@code unique} hash. */
    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }
}
