package dev.runnel.spring;

import dev.runnel.Runnel;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the client when the application context has started, and stops it gracefully when the
 * context closes: fetching stops, running jobs get {@code runnel.stop-timeout} to finish and are
 * then cancelled, and every outcome is written, all within Spring's
 * {@code spring.lifecycle.timeout-per-shutdown-phase}. A client with neither queues nor periodic
 * jobs only inserts and is not started.
 *
 * <p>Its phase puts it inside the web server's: it starts before the server takes requests and
 * stops after the server has finished those in flight, whose inserts still succeed.
 */
public final class RunnelLifecycle implements SmartLifecycle {
    /** The phase: {@value}, below the web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}). */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

    private static final Logger LOG = LoggerFactory.getLogger(RunnelLifecycle.class);

    private final Runnel runnel;
    private final boolean works;
    private final Duration stopTimeout;
    private volatile Instant startedAt;
    private volatile boolean running;

    RunnelLifecycle(Runnel runnel, boolean works, Duration stopTimeout) {
        this.runnel = runnel;
        this.works = works;
        this.stopTimeout = stopTimeout;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        if (works) {
            runnel.start();
            startedAt = Instant.now();
        }
        running = true;
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        if (works) {
            runnel.stop(stopTimeout);
        }
    }

    @Override
    public void stop(Runnable callback) {
        if (!running || !works) {
            stop();
            callback.run();
            return;
        }
        // Spring stops lifecycles of one phase in parallel and waits for their callbacks.
        Thread.ofPlatform().name("runnel-stop-" + runnel.id()).start(() -> {
            try {
                stop();
            } catch (RuntimeException e) {
                LOG.warn("stopping the Runnel client failed", e);
            } finally {
                callback.run();
            }
        });
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Whether this client works jobs (has queues or periodic jobs), and so is started. */
    public boolean works() {
        return works;
    }

    /** When the client was started, if it was. */
    public Optional<Instant> startedAt() {
        return Optional.ofNullable(startedAt);
    }
}
