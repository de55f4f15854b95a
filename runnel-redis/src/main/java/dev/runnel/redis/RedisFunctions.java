package dev.runnel.redis;

import dev.runnel.RunnelConnectException;
import dev.runnel.RunnelException;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's connection to Redis and its Function library: one shared Lettuce connection for
 * every call (Lettuce pipelines the calls of many threads on it), the library loaded at start
 * when the server lacks it or has an older version, and loaded again when a call finds it gone.
 * Every call is {@code FCALL} of one function with one key, the namespace's prefix.
 *
 * <p>A connection that breaks is reconnected by Lettuce; calls made while it is down fail at once,
 * unsent, and a call in flight when it broke fails as unclear, never sent again by Lettuce (a
 * claim or an insert run twice would take or store its jobs twice). A connection that does not
 * answer within the URL's timeout may be half-open, which no reconnect would notice: it is
 * replaced by a new one.
 */
final class RedisFunctions implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisFunctions.class);
    /** How a refused password or user begins its reason, wherever in the chain the server's reply sits. */
    private static final String AUTH_FAILED = "authentication failed";
    private static final String LIBRARY = "dev/runnel/redis/runnel.lua";
    /** Redis Functions came in 7.0. */
    private static final int MIN_MAJOR = 7;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * Every call is synchronous and waits for its reply for the URL's timeout on its own thread,
     * then fails with {@link RedisCommandTimeoutException}; Lettuce's own expiry of each command
     * on a timer (on by default) would only do the same again, at the cost of a timer entry per call.
     */
    static final TimeoutOptions CALLS_WAIT = TimeoutOptions.builder().timeoutCommands(false).build();

    /**
     * One set of Lettuce's threads (Netty event loops, daemon threads) for every driver of this
     * JVM: a driver per test or per tool does not start and stop its own.
     */
    private static final class Resources {
        static final ClientResources SHARED = DefaultClientResources.builder().ioThreadPoolSize(2)
                .computationThreadPoolSize(2).reconnectDelay(RECONNECT_DELAY)
                .timer(new SleepingTimer("runnel-redis-timer")).build();
    }

    /**
     * How long a lost connection waits between attempts to reconnect: from 100 ms, doubling, at
     * most 5 s (Lettuce's default grows to 30 s, which after a long outage left calls refused and
     * wake-ups unheard for up to 30 s after the server was back).
     */
    static final Delay RECONNECT_DELAY = Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(5), 2,
            TimeUnit.MILLISECONDS);

    private final RedisUrl url;
    private final RedisClient client;
    /** The connection every call uses; replaced when one timed out ({@link #replace}). */
    private volatile StatefulRedisConnection<String, String> connection;
    private final ReentrantLock replacing = new ReentrantLock();
    private final String[] prefixKey;
    private final String library;
    private final int version;

    private RedisFunctions(RedisUrl url, RedisClient client, StatefulRedisConnection<String, String> connection) {
        this.url = url;
        this.client = client;
        this.connection = connection;
        this.prefixKey = new String[] {RedisKeys.prefix(url.prefix())};
        this.library = readLibrary();
        this.version = libraryVersion(library);
    }

    /**
     * Connects to the server {@code url} names, checks that it runs Redis 7 or newer, and loads
     * the library if needed. A {@link RunnelConnectException} when the server cannot be reached,
     * refuses the credentials, or is older than 7.0; nothing is written then.
     */
    static RedisFunctions connect(RedisUrl url) {
        RedisClient client = RedisClient.create(Resources.SHARED, uri(url));
        client.setOptions(ClientOptions.builder()
                .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).keepAlive(true).build())
                // A call while the connection is down fails at once, unapplied, instead of waiting
                // in a buffer and running later, after its caller gave up on it.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .autoReconnect(true)
                .timeoutOptions(CALLS_WAIT)
                .build());
        StatefulRedisConnection<String, String> connection;
        try {
            connection = client.connect(Utf8Codec.INSTANCE);
        } catch (RedisException first) {
            try {
                // A refused password can reach us as the connection the client then closed, not
                // as the server's reply: with credentials, a second handshake says which it was.
                if (url.password() == null || reason(first).startsWith(AUTH_FAILED)) {
                    throw first;
                }
                connection = client.connect(Utf8Codec.INSTANCE);
            } catch (RedisException e) {
                shutdown(client);
                throw new RunnelConnectException("cannot connect to Redis at " + url.where() + ": " + reason(e), e);
            }
        }
        RedisFunctions functions = new RedisFunctions(url, client, connection);
        try {
            functions.checkServer();
            functions.ensureLibrary();
        } catch (RuntimeException e) {
            functions.close();
            throw e;
        }
        return functions;
    }

    /** Where {@code url} points, with its credentials, bounds and TLS, for a Lettuce client of this JVM's threads. */
    static RedisURI uri(RedisUrl url) {
        RedisURI.Builder uri = RedisURI.builder().withHost(url.host()).withPort(url.port()).withDatabase(url.database())
                .withSsl(url.tls()).withTimeout(url.timeout()).withClientName("runnel");
        if (url.password() != null) {
            uri.withAuthentication(url.user() == null ? "default" : url.user(), url.password().toCharArray());
        }
        return uri.build();
    }

    /** Lettuce's threads, one set for every driver of this JVM. */
    static ClientResources resources() {
        return Resources.SHARED;
    }

    private void checkServer() {
        String info;
        try {
            RedisCommands<String, String> sync = connection.sync();
            info = sync.info("server") + sync.info("persistence") + sync.info("memory");
        } catch (RedisException e) {
            throw new RunnelConnectException("cannot read the server's INFO at " + url.where() + ": " + reason(e), e);
        }
        String version = infoField(info, "redis_version");
        int major;
        try {
            major = Integer.parseInt(version.substring(0, version.indexOf('.')));
        } catch (RuntimeException e) {
            major = 0;
        }
        if (major < MIN_MAJOR) {
            throw new RunnelConnectException("Redis at " + url.where() + " is version " + version
                    + "; Runnel needs Redis 7.0 or newer (it runs every operation as a Redis Function)", null);
        }
        String policy = infoField(info, "maxmemory_policy");
        if (!policy.isEmpty() && !policy.equals("noeviction")) {
            log.warn("Redis at {} has maxmemory-policy {}: under memory pressure it may evict jobs; set"
                    + " maxmemory-policy noeviction for a Redis that keeps jobs", url.where(), policy);
        }
        if (infoField(info, "aof_enabled").equals("0") && infoField(info, "rdb_last_save_time").isEmpty()) {
            log.warn("Redis at {} has neither AOF nor RDB persistence: a restart loses every job", url.where());
        } else if (infoField(info, "aof_enabled").equals("0")) {
            log.warn("Redis at {} runs without AOF (appendonly no): a crash loses the jobs written since the last"
                    + " snapshot; set appendonly yes", url.where());
        }
    }

    private static String infoField(String info, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + ":(.*)$").matcher(info);
        return m.find() ? m.group(1).strip() : "";
    }

    /** Loads the library unless the server has this version or a newer one. */
    private void ensureLibrary() {
        long loaded;
        try {
            loaded = ((Number) connection.sync().fcall("runnel_version", ScriptOutputType.INTEGER, prefixKey)).longValue();
        } catch (RedisCommandExecutionException e) {
            if (!functionMissing(e)) {
                throw translate("runnel_version", e);
            }
            loaded = 0;
        } catch (RedisException e) {
            throw translate("runnel_version", e);
        }
        if (loaded > version) {
            throw new RunnelException("Redis at " + url.where() + " has Runnel's function library version " + loaded
                    + ", newer than this Runnel's " + version + "; upgrade Runnel (nothing was changed)");
        }
        if (loaded < version) {
            load();
        }
    }

    private void load() {
        try {
            connection.sync().functionLoad(library, true);
            log.info("loaded Runnel's function library version {} into Redis at {}", version, url.where());
        } catch (RedisException e) {
            throw translate("FUNCTION LOAD", e);
        }
    }

    /** Calls function {@code name}, whose reply is an array: a List of Longs, Strings, nulls and Lists. */
    List<Object> call(String name, String... args) {
        return invoke(name, ScriptOutputType.MULTI, args);
    }

    /** Calls function {@code name}, whose reply is an integer. */
    long callLong(String name, String... args) {
        return ((Number) invoke(name, ScriptOutputType.INTEGER, args)).longValue();
    }

    /**
     * Calls function {@code name} with {@code args}. When the server has lost the library
     * (restarted without it, a failover to a replica that never had it), it is loaded again and
     * the call repeated once: a call that finds no function ran nothing.
     */
    private <T> T invoke(String name, ScriptOutputType type, String... args) {
        StatefulRedisConnection<String, String> used = connection;
        try {
            return used.sync().fcall(name, type, prefixKey, args);
        } catch (RedisCommandExecutionException e) {
            if (!functionMissing(e)) {
                throw translate(name, e);
            }
        } catch (RedisCommandTimeoutException e) {
            replace(used);
            throw translate(name, e);
        } catch (RedisException e) {
            throw translate(name, e);
        }
        log.warn("Redis at {} lost Runnel's function library (restarted or failed over?): loading it again",
                url.where());
        load();
        used = connection;
        try {
            return used.sync().fcall(name, type, prefixKey, args);
        } catch (RedisCommandTimeoutException e) {
            replace(used);
            throw translate(name, e);
        } catch (RedisException e) {
            throw translate(name, e);
        }
    }

    /**
     * Replaces {@code timedOut} with a new connection, unless another call did already or is at
     * it. A connection whose calls time out may be half-open (the server or the path to it gone
     * without a reset), which Lettuce's reconnect never notices; a new connection either works or
     * fails, and the calls still waiting on the old one fail as unclear when it is closed. When the
     * new one cannot be opened, the old one stays, and the next timeout tries again.
     */
    private void replace(StatefulRedisConnection<String, String> timedOut) {
        if (!replacing.tryLock()) {
            return;
        }
        try {
            if (connection != timedOut) {
                return;
            }
            StatefulRedisConnection<String, String> fresh;
            try {
                fresh = client.connect(Utf8Codec.INSTANCE);
            } catch (RedisException e) {
                log.warn("Redis at {} did not answer within {} ms, and a new connection failed too: {}", url.where(),
                        url.timeout().toMillis(), reason(e));
                return;
            }
            connection = fresh;
            timedOut.closeAsync();
            log.warn("Redis at {} did not answer within {} ms: replaced the connection, which may have been half-open",
                    url.where(), url.timeout().toMillis());
        } finally {
            replacing.unlock();
        }
    }

    private static boolean functionMissing(RedisCommandExecutionException e) {
        String message = e.getMessage();
        return message != null && message.toLowerCase(java.util.Locale.ROOT).contains("function not found");
    }

    /**
     * {@code e} as Runnel's exception: a {@link RunnelConnectException} only when the call was
     * never sent (no connection, or one being reconnected: Lettuce rejects the call), since the
     * runtime takes that exception for "nothing applied" (a claim is then not looked for again);
     * a connection lost or silent while the call was on the wire makes its outcome unknown.
     */
    private RunnelException translate(String what, RedisException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (e instanceof RedisConnectionException || message.contains("Commands are rejected")
                || message.contains("Connection is closed")) {
            return new RunnelConnectException("Redis at " + url.where() + " cannot be reached (" + what + "): "
                    + reason(e), e);
        }
        if (e instanceof RedisCommandTimeoutException) {
            return new RunnelException("Redis at " + url.where() + " did not answer " + what + " within "
                    + url.timeout().toMillis() + " ms; whether it was applied is unknown", e);
        }
        if (e instanceof RedisCommandExecutionException) {
            return new RunnelException("Redis at " + url.where() + " refused " + what + ": " + reason(e), e);
        }
        return new RunnelException("Redis at " + url.where() + " lost the connection during " + what + " ("
                + reason(e) + "); whether it was applied is unknown", e);
    }

    /** Why a call or a connection failed, for a message: a refused password named as such. */
    static String reason(Throwable e) {
        // The server's refusal of the credentials may sit anywhere in the chain (Lettuce wraps it,
        // or reports the connection it then closed), so look through all of it first.
        java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>(List.of(e));
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        while (!todo.isEmpty()) {
            Throwable t = todo.pop();
            if (!seen.add(t)) {
                continue;
            }
            String m = t.getMessage();
            if (m != null && (m.contains("WRONGPASS") || m.contains("NOAUTH") || m.contains("invalid password")
                    || m.contains("invalid username-password"))) {
                return AUTH_FAILED + " (" + m + ")";
            }
            if (t.getCause() != null) {
                todo.push(t.getCause());
            }
            todo.addAll(List.of(t.getSuppressed()));
        }
        Throwable deepest = e;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        return deepest.getMessage() == null ? deepest.getClass().getSimpleName() : deepest.getMessage();
    }

    private static String readLibrary() {
        try (InputStream in = RedisFunctions.class.getClassLoader().getResourceAsStream(LIBRARY)) {
            if (in == null) {
                throw new IllegalStateException("the Redis function library " + LIBRARY + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code local VERSION = N} of the library's text. */
    static int libraryVersion(String library) {
        Matcher m = Pattern.compile("(?m)^local VERSION = (\\d+)$").matcher(library);
        if (!m.find()) {
            throw new IllegalStateException("the Redis function library has no VERSION line");
        }
        return Integer.parseInt(m.group(1));
    }

    /** The server's {@code INFO section} text, as it sends it. */
    String info(String section) {
        try {
            return connection.sync().info(section);
        } catch (RedisException e) {
            throw translate("INFO " + section, e);
        }
    }

    RedisUrl url() {
        return url;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } finally {
            shutdown(client);
        }
    }

    private static void shutdown(RedisClient client) {
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
