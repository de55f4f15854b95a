package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that the code under test brings about on its own threads, looking every
 * millisecond, and fails the test when it does not hold within the timeout. (The testkit's
 * {@code Await} serves the modules that may depend on it; this module's tests may not.)
 */
final class Eventually {
    private Eventually() {}

    static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
            Thread.sleep(1);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }
}
