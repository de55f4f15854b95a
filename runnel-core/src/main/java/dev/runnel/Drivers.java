package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.internal.DriverLoader;

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
        return DriverLoader.open(url);
    }

    /** {@code url} with any password replaced by {@code ***}, for messages and logs. */
    public static String redact(String url) {
        // Everything between the user and the last '@' is the password, even when it holds '/' or '@'.
        return url.replaceAll("(://[^:/@]*):.*@", "$1:***@")
                .replaceAll("(?i)([?&][^=&]*password[^=&]*=)[^&#]*", "$1***");
    }
}
