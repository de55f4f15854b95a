package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.LocalRedis;
import dev.runnel.testkit.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Network faults between working clients and Redis, through a TCP proxy: every connection reset
 * twice, the network stalled (bytes swallowed, no reset) past the call timeout, and Redis
 * unreachable for a second. Every acknowledged job ends completed, none is stored twice, a job
 * is worked twice only when its row shows it, nobody is taken for dead, and the clients recover.
 */
class RedisProxyFaultTest {
    /** Short, so that the stall is given up quickly; the default is 10 s. */
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void droppedStalledAndRefusedConnectionsLoseNothingAndStoreNothingTwice() throws Exception {
        LocalRedis redis = LocalRedis.shared();
        String prefix = "proxy" + Long.toHexString(System.nanoTime());
        String direct = redis.url(prefix);
        try (TcpProxy proxy = TcpProxy.start("127.0.0.1", redis.port())) {
            String viaProxy = "redis://127.0.0.1:" + proxy.port() + "/0?prefix=" + prefix + "&timeout="
                    + TIMEOUT.toMillis() + "ms";
            try (FaultDrain drain = new FaultDrain(direct, viaProxy, viaProxy, "proxied", 3_000, 2, 10);
                    Runnel reader = Runnel.builder().driver(RedisDriver.open(direct)).build()) {
                drain.start();
                List<String> log = new ArrayList<>();
                awaitWorked(drain, 500);
                proxy.dropAll();
                log.add("dropped all at " + drain.worked());
                awaitWorked(drain, 1_000);
                proxy.dropAll();
                log.add("dropped all at " + drain.worked());
                awaitWorked(drain, 1_500);
                log.add("stalled at " + drain.worked());
                proxy.stall();
                Thread.sleep(TIMEOUT.toMillis() * 5 / 2);
                proxy.unstall();
                awaitWorked(drain, 2_000);
                log.add("refused for 1 s at " + drain.worked());
                proxy.outage(Duration.ofSeconds(1));
                awaitWorked(drain, 2_500);
                String outcome = drain.finishAndCheck(reader, SETTLE);
                System.out.printf("RedisProxyFaultTest: %s; %d connections dropped, %d refused; %s%n", log,
                        proxy.dropped(), proxy.refused(), outcome);
                assertThat(proxy.dropped()).as("connections the proxy broke").isPositive();
                assertThat(proxy.refused()).as("connections the proxy refused").isPositive();
                // Nobody was taken for dead: the clients stopped cleanly, none rescued.
                assertThat(reader.clients()).allSatisfy(c -> assertThat(c.stoppedAt()).isPresent());
            }
        }
    }

    private static void awaitWorked(FaultDrain drain, int jobs) {
        Await.until(jobs + " jobs worked", SETTLE, () -> drain.worked() >= jobs);
    }
}
