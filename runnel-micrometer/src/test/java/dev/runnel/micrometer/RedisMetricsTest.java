package dev.runnel.micrometer;

import dev.runnel.driver.Driver;
import dev.runnel.redis.RedisDriver;
import dev.runnel.testkit.LocalRedis;
import java.nio.file.Path;

/** The metrics on a namespace of its own in the tests' redis-server. */
class RedisMetricsTest extends MetricsScenario {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }
}
