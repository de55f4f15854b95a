package dev.runnel.redis;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.LocalRedis;
import dev.runnel.testkit.conformance.OutcomeConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/** {@link OutcomeConformance} on a namespace of its own in the tests' redis-server. */
class RedisOutcomeTest extends OutcomeConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new SQLException("Redis has no SQL connection");
    }
}
