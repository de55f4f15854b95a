package dev.runnel.web;

import dev.runnel.driver.Driver;
import dev.runnel.redis.RedisDriver;
import dev.runnel.testkit.LocalRedis;
import java.nio.file.Path;

/** The dashboard's API on a namespace of its own in the tests' redis-server. */
class RedisDashboardApiTest extends DashboardApiScenario {
    @Override
    protected Driver newDriver(Path dir) {
        return RedisDriver.open(LocalRedis.shared().freshUrl());
    }
}
