package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import dev.runnel.driver.DriverProvider;

/** Opens {@code postgres://} and {@code postgresql://} URLs. */
public final class PostgresDriverProvider implements DriverProvider {
    @Override
    public boolean accepts(String scheme) {
        return scheme.equals("postgres") || scheme.equals("postgresql");
    }

    @Override
    public Driver open(String url) {
        return PostgresDriver.fromUrl(url);
    }
}
