package dev.runnel.internal;

import dev.runnel.Drivers;
import dev.runnel.driver.Driver;
import dev.runnel.driver.DriverProvider;
import java.util.ServiceLoader;

/** What {@link Drivers#open} does: finds the driver module on the path that accepts a URL's scheme. */
public final class DriverLoader {
    private DriverLoader() {}

    public static Driver open(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("database URL must not be blank");
        }
        int colon = url.indexOf("://");
        if (colon <= 0) {
            throw new IllegalArgumentException("database URL must look like scheme://..., was '" + Drivers.redact(url)
                    + "'");
        }
        String scheme = url.substring(0, colon);
        for (DriverProvider provider : ServiceLoader.load(DriverProvider.class, DriverLoader.class.getClassLoader())) {
            if (provider.accepts(scheme)) {
                return provider.open(url);
            }
        }
        throw new IllegalArgumentException("no Runnel driver for database URL scheme '" + scheme
                + "' (known: sqlite, postgres, postgresql)");
    }
}
