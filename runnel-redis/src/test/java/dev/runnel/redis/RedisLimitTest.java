package dev.runnel.redis;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.LocalRedis;
import dev.runnel.testkit.conformance.LimitConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/** {@link LimitConformance} on a namespace of its own in the tests' redis-server. */
class RedisLimitTest extends LimitConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new SQLException("Redis has no SQL connection");
    }
}
