package dev.runnel.redis;

import dev.runnel.driver.Driver;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisException;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears a namespace's wake-ups on a dedicated Lettuce pub/sub connection, never the shared one the
 * calls go over, and hands each message (a queue name, or a control message that starts with a
 * control character) to a consumer.
 *
 * <p>Why pub/sub and not a blocking wait on a per-queue marker (BLPOP): one connection serves every
 * queue of the client, where a blocking wait holds a connection per wait; every client of a queue
 * hears each insert, where a marker popped by one client is gone for the others (so each client
 * would need markers of its own, written by every insert); and a message that nobody hears is not
 * kept, where markers pile up in the keyspace while no client waits. What pub/sub loses, messages
 * sent while the connection is down, the producers' polling covers, as it covers NOTIFY on
 * Postgres. The channel is a shard channel ({@code SSUBSCRIBE}; the functions {@code SPUBLISH}) named
 * with the namespace's hash tag, {@code {NAME}:wake}: on Redis Cluster it lives on the shard that
 * holds the namespace's slot rather than being broadcast to every node.
 *
 * <p>A lost connection is reopened by Lettuce, which subscribes again once it is back (its
 * reconnection waits are {@link RedisFunctions#RECONNECT_DELAY}'s); the loss and the return are
 * logged once each. The consumer is told {@link Driver#LISTENING} once the subscription is in
 * place, first and after each reconnection, and {@link Driver#NOT_LISTENING} when the connection
 * goes: a client polls at its fetch poll interval only while it hears nothing, and at its safety
 * poll interval otherwise, as on Postgres. A silently dead peer is noticed by TCP keepalive within about
 * {@link #KEEPALIVE_IDLE} plus {@link #KEEPALIVE_COUNT} probes {@link #KEEPALIVE_INTERVAL} apart.
 * Messages are delivered on Lettuce's I/O thread: the consumer must not block (the runtime's only
 * sets a flag and unparks a thread).
 */
final class RedisListener implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisListener.class);

    /** The first wait between attempts to open a listener whose first connection failed, doubled up to the last. */
    private static final long BACKOFF_FIRST_MILLIS = 100;
    private static final long BACKOFF_MAX_MILLIS = 5_000;
    /** An idle listener's connection is probed after this long without traffic. */
    static final Duration KEEPALIVE_IDLE = Duration.ofSeconds(15);
    static final Duration KEEPALIVE_INTERVAL = Duration.ofSeconds(5);
    static final int KEEPALIVE_COUNT = 3;

    private final RedisUrl url;
    private final String channel;
    private final Consumer<String> consumer;
    private final Consumer<RedisListener> onClose;
    private final RedisClient client;
    private volatile StatefulRedisPubSubConnection<String, String> connection;
    private volatile boolean closed;
    /** Whether the loss of the connection was logged and its return not yet. */
    private volatile boolean lost;
    /**
     * Whether the consumer was last told {@link Driver#LISTENING} (the subscription is in place)
     * rather than {@link Driver#NOT_LISTENING}; both are told on Lettuce's I/O thread.
     */
    private volatile boolean heard;
    private Thread opener;

    private RedisListener(RedisUrl url, Consumer<String> consumer, Consumer<RedisListener> onClose) {
        this.url = url;
        this.channel = channel(url.prefix());
        this.consumer = consumer;
        this.onClose = onClose;
        this.client = RedisClient.create(RedisFunctions.resources(), RedisFunctions.uri(url));
        client.setOptions(ClientOptions.builder()
                .socketOptions(SocketOptions.builder().connectTimeout(RedisFunctions.CONNECT_TIMEOUT)
                        .keepAlive(SocketOptions.KeepAliveOptions.builder().enable().idle(KEEPALIVE_IDLE)
                                .interval(KEEPALIVE_INTERVAL).count(KEEPALIVE_COUNT).build())
                        .build())
                .autoReconnect(true)
                .timeoutOptions(RedisFunctions.CALLS_WAIT)
                .build());
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                if (!closed && !lost) {
                    lost = true;
                    log.warn("Redis listener for {} lost its connection; reconnecting (clients poll meanwhile)",
                            url.where());
                }
                if (!closed && heard) {
                    heard = false;
                    deliver(Driver.NOT_LISTENING);
                }
            }

            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                if (lost) {
                    lost = false;
                    log.info("Redis listener for {} is connected again", url.where());
                }
            }
        });
    }

    /** The shard channel of namespace {@code prefix}'s wake-ups, as the function library names it. */
    static String channel(String prefix) {
        return RedisKeys.prefix(prefix) + "wake";
    }

    /**
     * Starts listening. The subscription is in place before this returns, so that a message sent
     * after it is heard; if it cannot be made, a thread keeps trying in the background (clients
     * poll meanwhile). {@code onClose} is told when the listener has been closed.
     */
    static RedisListener start(RedisUrl url, Consumer<String> consumer, Consumer<RedisListener> onClose) {
        RedisListener listener = new RedisListener(url, consumer, onClose);
        try {
            listener.open();
        } catch (RedisException e) {
            if (String.valueOf(e.getMessage()).contains("NOPERM")) {
                log.warn("the Redis user of {} may not use the wake-up channel {}: clients poll for jobs (every fetch"
                        + " poll interval) until it may; grant it with ACL SETUSER <user> &{} (or allchannels)",
                        url.where(), listener.channel, listener.channel);
            } else {
                log.warn("Redis listener for {} cannot connect yet, will retry: {}", url.where(),
                        RedisFunctions.reason(e));
            }
            listener.lost = true;
            synchronized (listener) {
                listener.opener = Thread.ofPlatform().daemon().name("runnel-redis-listener-" + listener.channel)
                        .start(listener::keepOpening);
            }
        }
        return listener;
    }

    private void open() {
        StatefulRedisPubSubConnection<String, String> c = client.connectPubSub(Utf8Codec.INSTANCE);
        try {
            c.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void smessage(String from, String message) {
                    deliver(message);
                }

                @Override
                public void ssubscribed(String subscribed, long count) {
                    // The first subscription, and each one Lettuce makes again after a reconnection.
                    if (!closed && !heard) {
                        heard = true;
                        deliver(Driver.LISTENING);
                    }
                }
            });
            c.sync().ssubscribe(channel);
        } catch (RuntimeException e) {
            c.closeAsync();
            throw e;
        }
        synchronized (this) {
            if (closed) {
                c.closeAsync();
                return;
            }
            connection = c;
        }
    }

    private void keepOpening() {
        long backoff = BACKOFF_FIRST_MILLIS;
        while (!closed && connection == null) {
            try {
                Thread.sleep(backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1));
            } catch (InterruptedException e) {
                return; // closed
            }
            try {
                open();
                if (lost) {
                    lost = false;
                    log.info("Redis listener for {} is connected", url.where());
                }
            } catch (RedisException e) {
                log.debug("Redis listener for {} still cannot connect: {}", url.where(), RedisFunctions.reason(e));
                backoff = Math.min(backoff * 2, BACKOFF_MAX_MILLIS);
            }
        }
    }

    private void deliver(String message) {
        try {
            consumer.accept(message);
        } catch (RuntimeException e) {
            log.warn("insert listener failed for {}", message, e);
        }
    }

    /** Whether the subscription is in place now (for tests). */
    boolean subscribed() {
        StatefulRedisPubSubConnection<String, String> c = connection;
        return c != null && c.isOpen();
    }

    /** Unsubscribes and closes the connection; waits at most a few seconds. Idempotent. */
    @Override
    public void close() {
        StatefulRedisPubSubConnection<String, String> c;
        Thread t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            c = connection;
            t = opener;
        }
        if (t != null) {
            t.interrupt();
        }
        try {
            if (c != null) {
                c.close();
            }
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
            onClose.accept(this);
        }
    }
}
