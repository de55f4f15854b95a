package dev.runnel.postgres;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Removes the whitespace jsonb puts after each {@code :} and {@code ,} when it prints a value, so
 * that a job's args and metadata read back in the compact form the runtime writes and the SQLite
 * driver returns: the same job looks the same whichever driver stored it. A single pass over the
 * value's UTF-8 bytes as pgjdbc received them, far cheaper than parsing and writing it again, and
 * cheaper than decoding them to a string first (pgjdbc's {@code getString} makes a string this
 * would only copy).
 */
final class CompactJson {
    /** The version byte that starts jsonb's binary form, which is the text after it. */
    private static final byte JSONB_BINARY_VERSION = 1;

    private CompactJson() {}

    /**
     * A json or jsonb column, compact; null stays null. The connection's encoding is UTF-8 (pgjdbc
     * always sets it), and a multi-byte character's bytes are all above 0x7F, so they never look
     * like a quote, a backslash or whitespace.
     */
    static String read(ResultSet rs, int column) throws SQLException {
        return of(rs.getBytes(column));
    }

    /** {@code utf8}, a JSON value as text or as jsonb's binary form, without whitespace outside its strings. */
    static String of(byte[] utf8) {
        return of(utf8, null);
    }

    /**
     * {@link #of(byte[])}, compacting in {@code buffer}'s bytes (a new array when null): a decoder
     * of many rows keeps one, rather than an array for each value jsonb printed with spaces.
     */
    static String of(byte[] utf8, Buffer buffer) {
        if (utf8 == null) {
            return null;
        }
        int from = utf8.length > 0 && utf8[0] == JSONB_BINARY_VERSION ? 1 : 0;
        byte[] out = null;
        int n = 0;
        boolean inString = false;
        for (int i = from; i < utf8.length; i++) {
            byte b = utf8[i];
            boolean keep = true;
            if (inString) {
                if (b == '\\' && i + 1 < utf8.length) {
                    if (out != null) {
                        out[n++] = b;
                        b = utf8[++i];
                    } else {
                        i++;
                        continue;
                    }
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                keep = false;
                if (out == null) {
                    // The first whitespace: what came before it is kept as it is.
                    out = buffer == null ? new byte[utf8.length - from] : buffer.atLeast(utf8.length - from);
                    n = i - from;
                    System.arraycopy(utf8, from, out, 0, n);
                }
            }
            if (keep && out != null) {
                out[n++] = b;
            }
        }
        return out == null ? new String(utf8, from, utf8.length - from, StandardCharsets.UTF_8)
                : new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /** Bytes to compact into, kept from one value to the next by one thread. */
    static final class Buffer {
        private byte[] bytes = new byte[256];

        /** This buffer's bytes, at least {@code length} of them: grown (and kept so) when they were fewer. */
        byte[] atLeast(int length) {
            if (bytes.length < length) {
                bytes = new byte[Math.max(length, bytes.length * 2)];
            }
            return bytes;
        }
    }
}
