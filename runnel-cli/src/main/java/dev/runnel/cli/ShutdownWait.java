package dev.runnel.cli;

import dev.runnel.RunnelBuilder;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A long-running command's side of a JVM shutdown (Ctrl-C, SIGTERM). The client's own shutdown hook
 * stops it gracefully (every outcome written, the leadership given up); this one tells the command's
 * main thread to finish ({@link #requested()}), then holds the JVM until that thread has closed
 * everything ({@link #close()}), for at most the stop timeout and a few seconds.
 */
final class ShutdownWait implements AutoCloseable {
    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread hook;

    ShutdownWait() {
        hook = new Thread(() -> {
            requested.countDown();
            try {
                closed.await(RunnelBuilder.DEFAULT_STOP_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Counted down when a shutdown begins, or when the command ends on its own ({@link #finish()}). */
    CountDownLatch requested() {
        return requested;
    }

    /** The command ends on its own: whatever waits on {@link #requested()} stops waiting. */
    void finish() {
        requested.countDown();
    }

    /** Everything is closed: a shutdown in progress may go on; otherwise the hook is removed. */
    @Override
    public void close() {
        closed.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running, and has just been let go
        }
    }
}
