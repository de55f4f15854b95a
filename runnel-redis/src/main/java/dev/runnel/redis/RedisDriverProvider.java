package dev.runnel.redis;

import dev.runnel.driver.Driver;
import dev.runnel.driver.DriverProvider;

/** Opens {@code redis://} and {@code rediss://} URLs. */
public final class RedisDriverProvider implements DriverProvider {
    @Override
    public boolean accepts(String scheme) {
        return scheme.equals("redis") || scheme.equals("rediss");
    }

    @Override
    public Driver open(String url) {
        return RedisDriver.open(url);
    }
}
