package dev.runnel.redis;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.LocalRedis;
import dev.runnel.testkit.conformance.FailureConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * {@link FailureConformance} on a namespace of its own in the tests' redis-server. The tests that
 * make the database refuse an outcome need SQL (a trigger) and are skipped by capability.
 */
class RedisFailureTest extends FailureConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new SQLException("Redis has no SQL connection");
    }

    /** Never run: the tests that would use it need an SQL connection. */
    @Override
    protected String refuseMarkedOutcomesSql() {
        throw new UnsupportedOperationException("Redis has no triggers");
    }
}
