package dev.runnel.redis;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.LocalRedis;
import dev.runnel.testkit.conformance.JsonConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/** {@link JsonConformance} on a namespace of its own in the tests' redis-server. */
class RedisJsonTest extends JsonConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new SQLException("Redis has no SQL connection");
    }
}
