package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.LocalRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Redis killed with SIGKILL and started again on its AOF ({@code appendfsync always}) while two
 * clients work a queue and an inserter keeps adding jobs: every job whose insert was acknowledged
 * ends completed, no job is stored twice, a job is worked twice only when its row shows a second
 * attempt, and the clients reconnect by themselves.
 */
class RedisRestartTest {
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void everyAcknowledgedJobEndsCompletedOnceAfterRedisIsKilledAndRestartedMidRun() throws Exception {
        try (LocalRedis redis = LocalRedis.start(LocalRedis.Fsync.ALWAYS)) {
            String url = redis.freshUrl();
            try (FaultDrain drain = new FaultDrain(url, url, url, "restart", 1_500, 2, 10);
                    Runnel reader = Runnel.builder().driver(RedisDriver.open(url)).build()) {
                drain.start();
                Await.until("a third of the first jobs worked", SETTLE, () -> drain.worked() >= 500);
                int atKill = drain.worked();
                redis.kill();
                Thread.sleep(300);
                redis.restart();
                Await.until("work to go on after the restart", SETTLE, () -> drain.worked() >= atKill + 500);
                String outcome = drain.finishAndCheck(reader, SETTLE);
                System.out.printf("RedisRestartTest: killed at %d jobs worked; %s%n", atKill, outcome);
                // The library came back with the AOF (a server without it gets it loaded again).
                try (RedisClient raw = RedisClient.create("redis://127.0.0.1:" + redis.port());
                        StatefulRedisConnection<String, String> c = raw.connect()) {
                    assertThat(c.sync().functionList("runnel")).isNotEmpty();
                }
            }
        }
    }
}
