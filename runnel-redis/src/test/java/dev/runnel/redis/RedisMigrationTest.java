package dev.runnel.redis;

import dev.runnel.testkit.LocalRedis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.MigrationConformance;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/** {@link MigrationConformance} on a namespace of its own in the tests' redis-server: its objects are its keys. */
class RedisMigrationTest extends MigrationConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new SQLException("Redis has no SQL connection");
    }

    private <T> T withRedis(java.util.function.Function<io.lettuce.core.api.sync.RedisCommands<String, String>, T> use) {
        RedisClient raw = RedisClient.create("redis://127.0.0.1:" + LocalRedis.shared().port() + "/0");
        try (StatefulRedisConnection<String, String> c = raw.connect()) {
            return use.apply(c.sync());
        } finally {
            raw.shutdown();
        }
    }

    /** Every key of the namespace, as {@code "key NAME"} without the prefix (KEYS: a test's own small server). */
    @Override
    protected Set<String> databaseObjects() {
        String prefix = ((RedisDriver) driver).keyPrefix();
        Set<String> keys = new TreeSet<>();
        for (String k : withRedis(r -> r.keys(prefix.replace("{", "\\{").replace("}", "\\}") + "*"))) {
            keys.add("key " + k.substring(prefix.length()));
        }
        return keys;
    }

    /** A migrated namespace holds its migration record and nothing else until jobs are written. */
    @Override
    protected void assertMigrated(Set<String> objects) {
        assertThat(objects).containsExactly("key migrations");
    }

    @Override
    protected void assertPrintable(String up, String down) {
        assertThat(up).contains("records the namespace as Runnel's");
        assertThat(down).contains("deletes every key of the namespace");
    }

    @Override
    protected void recordMigrationByHand(int version, String name) {
        withRedis(r -> r.hset(((RedisDriver) driver).keyPrefix() + "migrations", Integer.toString(version),
                name + " " + RedisEncoding.micros(java.time.Instant.now())));
    }
}
