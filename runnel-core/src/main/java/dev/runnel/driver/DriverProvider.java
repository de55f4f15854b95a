package dev.runnel.driver;

/**
 * Opens a {@link Driver} from a database URL; found with {@link java.util.ServiceLoader}.
 * Internal SPI.
 */
public interface DriverProvider {
    /** Whether this provider handles the URL's scheme, e.g. {@code sqlite}. */
    boolean accepts(String scheme);

    /** Opens a driver for the URL; throws {@link IllegalArgumentException} on a malformed one. */
    Driver open(String url);
}
