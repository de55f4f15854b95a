package dev.runnel.redis;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.LocalRedis;
import dev.runnel.testkit.conformance.PeriodicConformance;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/** {@link PeriodicConformance} on a namespace of its own in the tests' redis-server. */
class RedisPeriodicTest extends PeriodicConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new SQLException("Redis has no SQL connection");
    }

    /** A hand edit of the periodic job's hash. */
    @Override
    protected void storeScheduleByHand(String name, String schedule) {
        RedisClient raw = RedisClient.create("redis://127.0.0.1:" + LocalRedis.shared().port() + "/0");
        try (StatefulRedisConnection<String, String> c = raw.connect()) {
            c.sync().hset(((RedisDriver) driver).keyPrefix() + "periodic:" + name, "schedule", schedule);
        } finally {
            raw.shutdown();
        }
    }
}
