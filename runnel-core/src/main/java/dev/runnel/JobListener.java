package dev.runnel;

/**
 * Receives {@link JobEvent}s. Called from the runtime's completion thread after the outcome was
 * stored: it must be quick and must not block. An exception it throws is logged and ignored.
 */
@FunctionalInterface
public interface JobListener {
    void onEvent(JobEvent event);
}
