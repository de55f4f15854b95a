package dev.runnel.sqlite;

import java.time.Duration;
import java.util.Locale;

/**
 * A parsed {@code sqlite://} URL: {@code sqlite://path/to/file.db} (relative to the working
 * directory), {@code sqlite:///absolute/path.db} or {@code sqlite://:memory:}, with optional query
 * parameters {@code busy=fair|native} and {@code busy_timeout=D} ({@code 500ms}, {@code 5s},
 * {@code 1m}; a unit is required, as SQLite counts milliseconds where the CLI counts seconds).
 */
record SqliteUrl(String path, SqliteBusyWait busyWait, Duration busyTimeout) {
    /** The longest busy timeout a URL may ask for; longer waits hide a stuck writer. */
    static final Duration MAX_BUSY_TIMEOUT = Duration.ofHours(1);

    static SqliteUrl parse(String url) {
        if (!url.startsWith("sqlite://")) {
            throw new IllegalArgumentException("a SQLite URL starts with sqlite://, was '" + url
                    + "' (for a file path, SqliteDriver.open(Path.of(\"" + url + "\")))");
        }
        String path = url.substring("sqlite://".length());
        SqliteBusyWait wait = SqliteBusyWait.FAIR;
        Duration timeout = Duration.ofMillis(SqliteDriver.DEFAULT_BUSY_TIMEOUT_MS);
        int query = path.indexOf('?');
        if (query >= 0) {
            for (String pair : path.substring(query + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                switch (name) {
                    case "busy" -> wait = busyWait(value, url);
                    case "busy_timeout" -> timeout = busyTimeout(value, url);
                    default -> throw new IllegalArgumentException("unknown SQLite URL parameter '" + name
                            + "' (known: busy, busy_timeout) in '" + url + "'");
                }
            }
            path = path.substring(0, query);
        }
        if (path.isBlank()) {
            throw new IllegalArgumentException("a SQLite URL needs a file path or :memory:, was '" + url + "'");
        }
        return new SqliteUrl(path, wait, timeout);
    }

    boolean memory() {
        return path.equals(":memory:");
    }

    private static SqliteBusyWait busyWait(String value, String url) {
        for (SqliteBusyWait w : SqliteBusyWait.values()) {
            if (w.urlName().equals(value.toLowerCase(Locale.ROOT))) {
                return w;
            }
        }
        throw new IllegalArgumentException("busy must be fair or native, was '" + value + "' in '" + url + "'");
    }

    private static Duration busyTimeout(String value, String url) {
        Duration d = parseDuration(value);
        if (d == null || d.isNegative() || d.compareTo(MAX_BUSY_TIMEOUT) > 0) {
            throw new IllegalArgumentException("busy_timeout must be a duration from 0 to 1h with its unit, such as 500ms or 5s, was '"
                    + value + "' in '" + url + "'");
        }
        return d;
    }

    private static Duration parseDuration(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit;
        String digits;
        if (v.endsWith("ms")) {
            unit = 1;
            digits = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            unit = 1_000;
            digits = v.substring(0, v.length() - 1);
        } else if (v.endsWith("m")) {
            unit = 60_000;
            digits = v.substring(0, v.length() - 1);
        } else {
            return null;
        }
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
            return null;
        }
        return Duration.ofMillis(Long.parseLong(digits) * unit);
    }
}
