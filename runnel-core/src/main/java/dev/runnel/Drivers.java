package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.internal.DriverLoader;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Opens a driver from a database URL ({@code sqlite://path/to/file.db}, {@code sqlite://:memory:},
 * {@code postgres://user@host:5432/db}) with whichever driver module on the path accepts its scheme.
 */
public final class Drivers {
    private Drivers() {}

    /**
     * Opens the driver for {@code url}. Throws {@link IllegalArgumentException} when the URL is
     * malformed or no driver on the path handles its scheme.
     */
    public static Driver open(String url) {
        return DriverLoader.open(url);
    }

    /**
     * {@code url} with every password replaced by {@code ***}, for messages and logs: the user
     * info's password (everything between the user and the last {@code @} before the query, so
     * that one holding an unencoded {@code /}, {@code @} or {@code ?} is masked whole), the value of
     * every query parameter whose name holds "password", and the passwords of a URL given as a
     * parameter's value, plain or percent-encoded (such as a Postgres URL's {@code listen_url}).
     * A URL that does not parse is masked all the same, erring on the side of masking more.
     */
    public static String redact(String url) {
        if (url == null) {
            return "null";
        }
        int scheme = url.indexOf("://");
        int authority = scheme < 0 ? 0 : scheme + 3;
        int userEnd = indexOfAny(url, ":/@?#", authority);
        String out = url;
        int queryFrom = authority;
        if (userEnd >= 0 && url.charAt(userEnd) == ':') {
            int query = indexOfAny(url, "?#", userEnd);
            query = query < 0 ? url.length() : query;
            int at = url.lastIndexOf('@', query - 1);
            if (at <= userEnd && query < url.length()) {
                // A '?' or '#' before the only '@' is the password's, unless what lies between reads as a query.
                int next = url.indexOf('@', query);
                if (next > 0 && url.substring(query, next).chars().noneMatch(c -> c == '=' || c == '&')) {
                    at = next;
                }
            }
            if (at > userEnd) {
                out = url.substring(0, userEnd + 1) + MASK + url.substring(at);
                queryFrom = userEnd + 1 + MASK.length() + 1;
            }
        }
        return redactQuery(out, queryFrom);
    }

    private static final String MASK = "***";

    /** {@code url} with the passwords in its query, from {@code from} on, masked. */
    private static String redactQuery(String url, int from) {
        int start = url.indexOf('?', from);
        if (start < 0) {
            return url;
        }
        int fragment = url.indexOf('#', start);
        int end = fragment < 0 ? url.length() : fragment;
        StringJoiner query = new StringJoiner("&");
        for (String pair : url.substring(start + 1, end).split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                query.add(pair);
                continue;
            }
            String key = pair.substring(0, eq);
            String value = pair.substring(eq + 1);
            query.add(key + "=" + (key.toLowerCase(Locale.ROOT).contains("password") ? MASK : redactValue(value)));
        }
        return url.substring(0, start + 1) + query + url.substring(end);
    }

    /** A parameter's value: a URL in it, plain or percent-encoded, redacted; anything else as it is. */
    private static String redactValue(String value) {
        if (value.contains("://")) {
            return redact(value);
        }
        if (value.indexOf('%') < 0) {
            return value;
        }
        String decoded;
        try {
            decoded = URLDecoder.decode(value, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // Undecodable: it may be a URL whose password cannot be found, so none of it is shown.
            return MASK;
        }
        if (!decoded.contains("://")) {
            return value;
        }
        String redacted = redact(decoded);
        return redacted.equals(decoded) ? value : URLEncoder.encode(redacted, StandardCharsets.UTF_8);
    }

    private static int indexOfAny(String s, String chars, int from) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
