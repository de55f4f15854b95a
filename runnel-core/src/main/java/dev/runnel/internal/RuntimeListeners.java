package dev.runnel.internal;

import dev.runnel.JobCount;
import dev.runnel.RuntimeListener;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's {@link RuntimeListener}s, each called in turn and shielded from the others: one that
 * throws is logged and the runtime goes on. With none, callers skip even measuring.
 */
public final class RuntimeListeners {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeListeners.class);

    /** No listeners. */
    public static final RuntimeListeners NONE = new RuntimeListeners(List.of());

    private final List<RuntimeListener> listeners;

    public RuntimeListeners(List<RuntimeListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    public boolean isEmpty() {
        return listeners.isEmpty();
    }

    void claimed(String queue, int requested, int claimed, long tookNanos) {
        Duration took = Duration.ofNanos(tookNanos);
        for (RuntimeListener l : listeners) {
            try {
                l.claimed(queue, requested, claimed, took);
            } catch (RuntimeException e) {
                LOG.warn("runtime listener {} threw on a claim of queue {}", l, queue, e);
            }
        }
    }

    void outcomesWritten(int count, long tookNanos) {
        Duration took = Duration.ofNanos(tookNanos);
        for (RuntimeListener l : listeners) {
            try {
                l.outcomesWritten(count, took);
            } catch (RuntimeException e) {
                LOG.warn("runtime listener {} threw on a write of {} outcomes", l, count, e);
            }
        }
    }

    void jobCounts(List<JobCount> counts) {
        for (RuntimeListener l : listeners) {
            try {
                l.jobCounts(counts);
            } catch (RuntimeException e) {
                LOG.warn("runtime listener {} threw on the job counts", l, e);
            }
        }
    }

    void jobCountsStopped() {
        for (RuntimeListener l : listeners) {
            try {
                l.jobCountsStopped();
            } catch (RuntimeException e) {
                LOG.warn("runtime listener {} threw when job counting stopped", l, e);
            }
        }
    }
}
