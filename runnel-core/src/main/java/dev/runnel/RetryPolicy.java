package dev.runnel;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** How long a failed job waits before its next attempt. */
@FunctionalInterface
public interface RetryPolicy {
    /**
     * The default: attempt<sup>4</sup> seconds with &plusmn;10% jitter (1 s, 16 s, 81 s, 256 s, ...),
     * so 25 attempts span about three weeks, and jobs failing together do not retry together.
     */
    RetryPolicy DEFAULT = attempt -> {
        double base = Math.pow(Math.max(1, attempt), 4);
        double jitter = 1.0 + ThreadLocalRandom.current().nextDouble(-0.1, 0.1);
        return Duration.ofMillis((long) (base * jitter * 1000));
    };

    /** The delay after attempt number {@code attempt} (1 for the first) failed. */
    Duration delay(int attempt);
}
