package dev.runnel.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * Wakes the tickers that sleep long while none of a client's jobs runs (the cancel watcher) at the
 * first job start after one of them went to sleep. A job start costs one volatile read while no
 * watcher sleeps.
 */
final class JobStartAlarm {
    private final List<Runnable> sleepers = new CopyOnWriteArrayList<>();
    /** Raised only while a watcher sleeps for want of running jobs; the next job start lowers it. */
    private volatile boolean armed;

    /** {@code wake} runs at the first job start after the alarm was raised. */
    void wakes(Runnable wake) {
        sleepers.add(wake);
    }

    /** A job was added to its producer's running jobs. */
    void jobStarted() {
        if (armed) {
            armed = false;
            for (Runnable sleeper : sleepers) {
                sleeper.run();
            }
        }
    }

    /**
     * Whether none of {@code producers}' jobs runs; if so, raises the alarm for the caller's sleep.
     * Raised first, then looked again: a job added after the second look finds it raised and wakes
     * the caller. It is raised only when nothing runs: raised at every sweep, busy clients' job
     * starts saw it and woke the watchers into sweep after sweep (the bench at 1,000 slots lost
     * about a fifth of its jobs/s).
     */
    boolean armIfIdle(List<Producer> producers) {
        return armIfIdle(() -> anyRunning(producers));
    }

    /** As {@link #armIfIdle(List)}, with {@code anyRunning} telling whether any job runs. */
    boolean armIfIdle(BooleanSupplier anyRunning) {
        if (anyRunning.getAsBoolean()) {
            return false;
        }
        armed = true;
        return !anyRunning.getAsBoolean();
    }

    private static boolean anyRunning(List<Producer> producers) {
        for (Producer producer : producers) {
            if (!producer.running().isEmpty()) {
                return true;
            }
        }
        return false;
    }
}
