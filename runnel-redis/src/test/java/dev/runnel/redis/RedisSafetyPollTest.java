package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.LocalRedis;
import dev.runnel.testkit.conformance.ListeningClientConformance;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/**
 * The listening client's conformance on Redis ({@link ListeningClientConformance}): jobs no one
 * announces come from an ACL user whose channel is refused, and the listening connection is cut by
 * {@code CLIENT KILL TYPE pubsub}.
 */
class RedisSafetyPollTest extends ListeningClientConformance {
    private final List<AutoCloseable> opened = new ArrayList<>();
    private String prefix;
    /** A client whose inserts no one hears of, made at the first {@link #insertUnannounced}. */
    private Runnel quiet;

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
    }

    private static RedisDriver driver(String url) {
        RedisDriver driver = RedisDriver.open(url);
        new dev.runnel.Migrator(driver).up();
        return driver;
    }

    @Override
    protected Driver newStore() {
        prefix = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return sameStore();
    }

    @Override
    protected Driver sameStore() {
        return driver(LocalRedis.shared().url(prefix));
    }

    /**
     * Inserted through a user whose ACL grants no channel: the library's publish is refused, so the
     * job is written and no one hears of it.
     */
    @Override
    protected void insertUnannounced(String queue, String name) {
        if (quiet == null) {
            String user = "u" + prefix;
            RedisClient raw = RedisClient.create("redis://127.0.0.1:" + LocalRedis.shared().port() + "/0");
            try (StatefulRedisConnection<String, String> admin = raw.connect()) {
                admin.sync().aclSetuser(user, AclSetuserArgs.Builder.on().addPassword("pw").allKeys().allCommands());
            }
            opened.add(() -> {
                try (StatefulRedisConnection<String, String> admin = raw.connect()) {
                    admin.sync().aclDeluser(user);
                } finally {
                    raw.shutdown();
                }
            });
            RedisDriver quietDriver = driver("redis://" + user + ":pw@127.0.0.1:" + LocalRedis.shared().port()
                    + "/0?prefix=" + prefix);
            opened.add(quietDriver);
            quiet = Runnel.builder().driver(quietDriver).build();
        }
        quiet.insert(new Ping(name), InsertOptions.builder().queue(queue).build());
    }

    @Override
    protected void cutListening() {
        RedisClient raw = RedisClient.create("redis://127.0.0.1:" + LocalRedis.shared().port() + "/0");
        try (StatefulRedisConnection<String, String> admin = raw.connect()) {
            assertThat(admin.sync().clientKill(KillArgs.Builder.typePubsub())).isGreaterThanOrEqualTo(1);
        } finally {
            raw.shutdown();
        }
    }
}
