package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.driver.DriverProvider;
import java.util.ServiceLoader;

/**
 * Opens a driver from a database URL ({@code sqlite://path/to/file.db}, {@code sqlite://:memory:},
 * {@code postgres://user@host:5432/db}) with whichever driver module on the path accepts its scheme.
 */
public final class Drivers {
    private Drivers() {}

    /**
     * Opens the driver for {@code url}. Throws {@link IllegalArgumentException} when the URL is
     * malformed or no driver on the path handles its scheme.
     */
    public static Driver open(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("database URL must not be blank");
        }
        int colon = url.indexOf("://");
        if (colon <= 0) {
            throw new IllegalArgumentException("database URL must look like scheme://..., was '" + redact(url) + "'");
        }
        String scheme = url.substring(0, colon);
        for (DriverProvider provider : ServiceLoader.load(DriverProvider.class, Drivers.class.getClassLoader())) {
            if (provider.accepts(scheme)) {
                return provider.open(url);
            }
        }
        throw new IllegalArgumentException("no Runnel driver for database URL scheme '" + scheme
                + "' (known: sqlite, postgres, postgresql)");
    }

    /** {@code url} with any password replaced by {@code ***}, for messages and logs. */
    public static String redact(String url) {
        // Everything between the user and the last '@' is the password, even when it holds '/' or '@'.
        return url.replaceAll("(://[^:/@]*):.*@", "$1:***@")
                .replaceAll("(?i)([?&][^=&]*password[^=&]*=)[^&#]*", "$1***");
    }
}
