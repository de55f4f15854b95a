package dev.runnel.sqlite;

import dev.runnel.driver.Driver;
import dev.runnel.driver.DriverProvider;

/** Opens {@code sqlite://} URLs. */
public final class SqliteDriverProvider implements DriverProvider {
    @Override
    public boolean accepts(String scheme) {
        return scheme.equals("sqlite");
    }

    @Override
    public Driver open(String url) {
        return SqliteDriver.open(url);
    }
}
