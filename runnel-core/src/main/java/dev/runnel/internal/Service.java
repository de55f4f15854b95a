package dev.runnel.internal;

/**
 * The lifecycle every runtime service shares. {@link #stop()} is idempotent and safe when the
 * service was never started.
 */
public interface Service {
    void start();

    void stop();
}
