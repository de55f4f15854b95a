package dev.runnel.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition that the runtime brings about on its own threads. */
public final class Await {
    /** How long a condition may take before the test fails: generous, for a loaded CI machine. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    private Await() {}

    public static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT_TIMEOUT, condition);
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}
