package dev.runnel.web.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The dashboard's URLs, built and read in one place: every name in a path is one percent-encoded
 * segment, so that a queue named {@code a/b} or {@code ../jobs/1/delete?} stays one segment and
 * names only itself; query values are form-encoded. A request's path is decoded once, segment by
 * segment, and its query once, pair by pair.
 */
public final class Urls {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Urls() {}

    /**
     * A path of {@code segments}, each encoded by {@link #segment}: {@code path("queues", "a/b", "pause")}
     * is {@code /queues/a%2Fb/pause}.
     */
    public static String path(Object... segments) {
        StringBuilder b = new StringBuilder();
        for (Object s : segments) {
            b.append('/').append(segment(String.valueOf(s)));
        }
        return b.toString();
    }

    /**
     * One path segment: every UTF-8 byte of {@code s} percent-encoded except letters, digits,
     * {@code -}, {@code _} and {@code ~}. Dots are encoded too, so that no name reads as {@code .}
     * or {@code ..} to a tool that resolves those (curl, proxies, {@link java.net.URI#normalize()}).
     * Browsers resolve {@code %2E%2E} as well, so a name that is only dots cannot be a segment a
     * browser sends as it is: its form lands on a path that changes nothing.
     */
    public static String segment(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder(bytes.length + 8);
        for (byte x : bytes) {
            int c = x & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '~') {
                b.append((char) c);
            } else {
                b.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return b.toString();
    }

    /** {@code ?k=v&k=v} of {@code params} in their order, form-encoded; empty when there are none. */
    public static String query(Map<String, String> params) {
        if (params.isEmpty()) {
            return "";
        }
        StringJoiner q = new StringJoiner("&", "?", "");
        params.forEach((k, v) -> q.add(form(k) + "=" + form(v)));
        return q.toString();
    }

    /** {@code ?key=value}, form-encoded. */
    public static String query(String key, String value) {
        return query(Map.of(key, value));
    }

    /** {@code s} form-encoded, as a query value or key. */
    public static String form(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /**
     * {@code raw} percent-decoded once, its bytes read as UTF-8; {@code plusIsSpace} for query and
     * form values, where {@code +} is a space (in a path it is a plus). A character outside ASCII
     * stands for itself. Throws IllegalArgumentException, naming {@code what} and the fault, on a
     * {@code %} not followed by two hex digits or bytes that are not UTF-8.
     */
    static String decode(String raw, boolean plusIsSpace, String what) {
        if (raw.indexOf('%') < 0 && (!plusIsSpace || raw.indexOf('+') < 0)) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); ) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 1 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    String bad = raw.substring(i, Math.min(raw.length(), i + 3));
                    throw new IllegalArgumentException(what + " has a malformed percent-encoding: '" + bad
                            + "' is not % and two hex digits (a % itself is %25)");
                }
                bytes.write(hi << 4 | lo);
                i += 3;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
                i++;
            } else if (c < 0x80) {
                bytes.write(c);
                i++;
            } else {
                int cp = raw.codePointAt(i);
                if (Character.isSurrogate((char) cp) && Character.charCount(cp) == 1) {
                    throw new IllegalArgumentException(what + " holds a lone surrogate (U+"
                            + Integer.toHexString(cp).toUpperCase(java.util.Locale.ROOT) + ")");
                }
                bytes.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(what + " is not UTF-8 once percent-decoded: " + e.getMessage());
        }
    }
}
