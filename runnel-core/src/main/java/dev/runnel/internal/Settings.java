package dev.runnel.internal;

import java.time.Duration;
import java.util.UUID;

/**
 * The checks the client builder runs on each setting as it is given: each failure names the
 * setting and the value.
 */
public final class Settings {
    private Settings() {}

    public static <V> V require(String option, V value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " must not be null");
        }
        return value;
    }

    public static int atLeastOne(String option, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(option + " must be at least 1, was " + value);
        }
        return value;
    }

    public static Duration positive(String option, Duration d) {
        require(option, d);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(option + " must be positive, was " + d);
        }
        return d;
    }

    public static Duration notNegative(String option, Duration d) {
        require(option, d);
        if (d.isNegative()) {
            throw new IllegalArgumentException(option + " must not be negative, was " + d);
        }
        return d;
    }

    public static Duration between(String option, Duration d, Duration min, Duration max) {
        require(option, d);
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ", was " + d);
        }
        return d;
    }

    /** A client id unique enough across a cluster: the host, the process id and a random suffix. */
    public static String defaultClientId() {
        String host = System.getenv().getOrDefault("HOSTNAME", "runnel");
        return host + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
