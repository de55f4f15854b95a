package dev.runnel.redis;

import dev.runnel.testkit.LocalRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Plain Lettuce commands on the tests' shared redis-server, beside the driver: for a test that
 * looks at or breaks what the driver stored. One connection for the test JVM, closed at its exit.
 */
final class RawRedis {
    private static RedisCommands<String, String> commands;

    private RawRedis() {}

    static synchronized RedisCommands<String, String> commands() {
        if (commands == null) {
            RedisClient client = RedisClient.create("redis://127.0.0.1:" + LocalRedis.shared().port() + "/0");
            StatefulRedisConnection<String, String> connection = client.connect();
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
                connection.close();
                client.shutdown();
            }));
            commands = connection.sync();
        }
        return commands;
    }
}
