package dev.runnel.redis;

import dev.runnel.Drivers;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed {@code redis://[user:password@]host:port/db[?prefix=NAME&timeout=T]} or
 * {@code rediss://} (TLS) URL. The port defaults to 6379 and the database to 0; {@code prefix}
 * names the namespace, whose keys all start with {@code {NAME}:} (default {@value #DEFAULT_PREFIX});
 * {@code timeout} bounds each call, as {@code 500ms} or {@code 10s} (default 10 s). User and
 * password are percent-decoded.
 */
record RedisUrl(boolean tls, String host, int port, int database, String user, String password, String prefix,
        Duration timeout) {
    static final String DEFAULT_PREFIX = "runnel";
    /**
     * How long one call may take by default: a stalled server or a half-open connection costs at
     * most this, after which the connection is replaced. Ten seconds leaves a large claim or
     * cleaner batch on a busy server room to finish.
     */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration MIN_TIMEOUT = Duration.ofMillis(100);
    private static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);
    private static final Pattern TIMEOUT = Pattern.compile("([0-9]{1,6})(ms|s)");
    static final int DEFAULT_PORT = 6379;
    /** The databases a default server has (its {@code databases} setting); a higher one is refused there. */
    static final int MAX_DATABASE = 15;
    /**
     * A namespace name: letters, digits, {@code _ - .}, at most 64. No braces, which would change
     * the hash tag, and no colon, which separates a key's parts.
     */
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    static RedisUrl parse(String url) {
        if (url == null) {
            throw new IllegalArgumentException("a Redis URL must not be null");
        }
        boolean tls;
        String rest;
        if (url.startsWith("redis://")) {
            tls = false;
            rest = url.substring("redis://".length());
        } else if (url.startsWith("rediss://")) {
            tls = true;
            rest = url.substring("rediss://".length());
        } else {
            throw new IllegalArgumentException("a Redis URL starts with redis:// or rediss://, was '" + Drivers.redact(url) + "'");
        }
        String prefix = DEFAULT_PREFIX;
        Duration timeout = DEFAULT_TIMEOUT;
        int query = rest.indexOf('?');
        if (query >= 0) {
            for (String pair : rest.substring(query + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1), url);
                if (name.equals("timeout")) {
                    timeout = timeout(value, url);
                    continue;
                }
                if (!name.equals("prefix")) {
                    throw new IllegalArgumentException("unknown Redis URL parameter '" + name
                            + "' (known: prefix, timeout) in '" + Drivers.redact(url) + "'");
                }
                if (value.contains("{") || value.contains("}")) {
                    // The prefix is the namespace's hash tag: a brace in it would end the tag
                    // early or open another, and its keys would spread over slots of a cluster.
                    throw new IllegalArgumentException("prefix must not contain '{' or '}', was '" + value
                            + "': every key of a namespace shares the hash tag {PREFIX}, so that one cluster slot"
                            + " holds it, and a brace would break the tag and spread its keys over slots, in '"
                            + Drivers.redact(url) + "'");
                }
                if (!PREFIX.matcher(value).matches()) {
                    throw new IllegalArgumentException("prefix must be 1 to 64 letters, digits, '_', '-' or '.', was '"
                            + value + "' in '" + Drivers.redact(url) + "'");
                }
                prefix = value;
            }
            rest = rest.substring(0, query);
        }
        String user = null;
        String password = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            String info = rest.substring(0, at);
            rest = rest.substring(at + 1);
            int colon = info.indexOf(':');
            if (colon < 0) {
                // redis://secret@host: Redis' own form for a password without a user.
                password = decode(info, url);
            } else {
                user = info.substring(0, colon).isEmpty() ? null : decode(info.substring(0, colon), url);
                password = decode(info.substring(colon + 1), url);
            }
        }
        int database = 0;
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            String db = rest.substring(slash + 1);
            rest = rest.substring(0, slash);
            if (!db.isEmpty()) {
                if (!db.matches("[0-9]{1,2}") || Integer.parseInt(db) > MAX_DATABASE) {
                    throw new IllegalArgumentException("the Redis database must be a number from 0 to " + MAX_DATABASE
                            + ", was '" + db + "' in '" + Drivers.redact(url) + "'");
                }
                database = Integer.parseInt(db);
            }
        }
        String host = rest;
        int port = DEFAULT_PORT;
        int colon = rest.lastIndexOf(':');
        if (colon >= 0 && !rest.endsWith("]")) {
            host = rest.substring(0, colon);
            String p = rest.substring(colon + 1);
            if (!p.matches("[0-9]{1,5}") || Integer.parseInt(p) < 1 || Integer.parseInt(p) > 65535) {
                throw new IllegalArgumentException("the Redis port must be a number from 1 to 65535, was '" + p
                        + "' in '" + Drivers.redact(url) + "'");
            }
            port = Integer.parseInt(p);
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isBlank()) {
            throw new IllegalArgumentException("a Redis URL needs a host, as in redis://127.0.0.1:6379/0, was '"
                    + Drivers.redact(url) + "'");
        }
        return new RedisUrl(tls, host, port, database, user, password, prefix, timeout);
    }

    private static Duration timeout(String value, String url) {
        Matcher m = TIMEOUT.matcher(value);
        Duration timeout = null;
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            timeout = m.group(2).equals("ms") ? Duration.ofMillis(amount) : Duration.ofSeconds(amount);
        }
        if (timeout == null || timeout.compareTo(MIN_TIMEOUT) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException("timeout must be a duration from 100ms to 600s, as 500ms or 10s, was '"
                    + value + "' in '" + Drivers.redact(url) + "'");
        }
        return timeout;
    }

    /** Where the server is, for messages: never the password. */
    String where() {
        return (tls ? "rediss://" : "redis://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/"
                + database + " (prefix " + prefix + ")";
    }

    private static String decode(String s, String url) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed percent-encoding in the Redis URL '" + Drivers.redact(url) + "'");
        }
    }

    @Override
    public String toString() {
        return where();
    }
}
