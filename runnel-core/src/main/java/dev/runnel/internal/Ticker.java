package dev.runnel.internal;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service that runs a task every interval on its own daemon thread until stopped; the base of the
 * maintenance services. A failing tick is logged and the next one runs as usual.
 */
public abstract class Ticker implements Service {
    private static final Logger LOG = LoggerFactory.getLogger(Ticker.class);

    private final String name;
    private final Duration interval;
    private volatile boolean stopping;
    /** Set by {@link #wakeUp()}: the wait for the next tick ends early. */
    private volatile boolean woken;
    private Thread thread;

    protected Ticker(String name, Duration interval) {
        this.name = name;
        this.interval = interval;
    }

    /** One round of work; returns true to run again at once (there was more to do). */
    protected abstract boolean tick();

    /** How long to wait after a tick that returned false; the interval unless a subclass knows better. */
    protected long waitNanos() {
        return interval.toNanos();
    }

    @Override
    public synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().name("runnel-" + name).daemon().start(this::loop);
        }
    }

    /** Runs the next tick now rather than at the end of the interval. */
    public void wakeUp() {
        woken = true;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void stop() {
        Thread t;
        synchronized (this) {
            stopping = true;
            t = thread;
        }
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void loop() {
        while (!stopping) {
            boolean again;
            try {
                again = tick();
            } catch (RuntimeException e) {
                LOG.warn("{} failed: {}", name, e.toString());
                again = false;
            }
            if (!again) {
                long end = System.nanoTime() + waitNanos();
                long left;
                while (!stopping && !woken && (left = end - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(left);
                }
            }
            woken = false;
        }
    }
}
