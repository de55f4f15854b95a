package dev.runnel.redis.testing;

import dev.runnel.redis.RedisServer;

/**
 * The Redis tests' own {@code redis-server} ({@link RedisServer}) for the tests of other modules
 * that run on Redis too, through the tests jar of runnel-redis. A package of its own: those modules
 * compile their tests against the driver's module, which holds {@code dev.runnel.redis} whole.
 */
public final class TestRedis {
    private TestRedis() {}

    /** {@code redis://127.0.0.1:PORT/0?prefix=...} of a new namespace of its own, the server started at the first call. */
    public static String freshUrl() {
        return RedisServer.get().freshUrl();
    }

    /** The server's port. */
    public static int port() {
        return RedisServer.get().port();
    }
}
