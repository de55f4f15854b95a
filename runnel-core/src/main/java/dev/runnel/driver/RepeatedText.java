package dev.runnel.driver;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A text column read row after row as its UTF-8 bytes, decoded into a string only when they differ
 * from the row before's: a claim's jobs are mostly of a few kinds, so most rows reuse the string
 * (and its cached hash). One per statement's rows, on one thread. Internal SPI.
 */
public final class RepeatedText {
    private byte[] lastUtf8;
    private String last;

    /** The string whose UTF-8 bytes are {@code utf8}; null for null. */
    public String of(byte[] utf8) {
        if (!Arrays.equals(utf8, lastUtf8)) {
            lastUtf8 = utf8;
            last = utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
        }
        return last;
    }
}
