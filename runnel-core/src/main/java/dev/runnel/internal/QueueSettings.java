package dev.runnel.internal;

import static dev.runnel.internal.Settings.atLeastOne;
import static dev.runnel.internal.Settings.require;

import dev.runnel.InsertOptions;
import dev.runnel.KeyLimit;
import dev.runnel.QueueExecutor;
import dev.runnel.RateLimit;
import dev.runnel.Runnel;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queues a client builder was given, each checked as it comes: its workers, delivery,
 * executor and limits. What {@code RunnelBuilder}'s queue settings keep, and settle at build.
 */
public final class QueueSettings {
    private final int maxWorkers;
    private final Map<String, ClientConfig.QueueConfig> queues = new LinkedHashMap<>();

    /** @param maxWorkers the most workers a queue may have */
    public QueueSettings(int maxWorkers) {
        this.maxWorkers = maxWorkers;
    }

    /** Adds queue {@code name}; {@code executor} null for the one {@link #settled} gives it. */
    public void add(String name, int workers, Runnel.Delivery delivery, QueueExecutor executor) {
        InsertOptions.validateQueue(name);
        if (workers < 1 || workers > maxWorkers) {
            throw new IllegalArgumentException("maxWorkers of queue " + name + " must be between 1 and "
                    + maxWorkers + ", was " + workers);
        }
        require("delivery", delivery);
        if (executor instanceof QueueExecutor.PlatformThreads) {
            checkPoolSize(name, workers, executor);
        }
        ClientConfig.QueueConfig queue = new ClientConfig.QueueConfig(workers, delivery == Runnel.Delivery.AT_MOST_ONCE);
        if (queues.putIfAbsent(name, executor == null ? queue : queue.withExecutor(executor)) != null) {
            throw new IllegalArgumentException("queue " + name + " is configured twice");
        }
    }

    public void globalLimit(String name, int limit) {
        ClientConfig.QueueConfig queue = limitable(name, "globalLimit");
        queues.put(name, queue.withGlobalLimit(atLeastOne("globalLimit of queue " + name, limit)));
    }

    public void rateLimit(String name, int jobs, Duration period) {
        ClientConfig.QueueConfig queue = limitable(name, "rateLimit");
        queues.put(name, queue.withRateLimit(new RateLimit(jobs, period)));
    }

    public void keyLimit(String name, KeyLimit limit) {
        ClientConfig.QueueConfig queue = limitable(name, "keyLimit");
        queues.put(name, queue.withKeyLimit(require("keyLimit", limit)));
    }

    public boolean isEmpty() {
        return queues.isEmpty();
    }

    /**
     * Refuses a per-key limit by an args field that none of {@code units}' args records has: every
     * job would be under the key "". Names the field.
     */
    public void checkKeyFields(Collection<WorkUnit<?>> units) {
        queues.values().forEach(queue -> queue.keyLimit().ifPresent(limit -> checkKeyField(limit, units)));
    }

    /**
     * Each queue with its executor settled: its own, else platform threads at the embedded nice
     * when {@code embedded}, else virtual threads.
     */
    public Map<String, ClientConfig.QueueConfig> settled(boolean embedded) {
        QueueExecutor byDefault = embedded ? QueueExecutor.platformThreads(QueueExecutor.EMBEDDED_NICE)
                : QueueExecutor.virtualThreads();
        Map<String, ClientConfig.QueueConfig> settled = new LinkedHashMap<>();
        queues.forEach((name, queue) -> {
            if (queue.executor().isEmpty() && embedded) {
                checkPoolSize(name, queue.maxWorkers(), byDefault);
            }
            settled.put(name, queue.executor().isPresent() ? queue : queue.withExecutor(byDefault));
        });
        return settled;
    }

    private static void checkPoolSize(String name, int workers, QueueExecutor executor) {
        if (workers > QueueExecutor.MAX_PLATFORM_THREADS) {
            throw new IllegalArgumentException("queue " + name + " runs on " + executor + ": its maxWorkers must be at"
                    + " most " + QueueExecutor.MAX_PLATFORM_THREADS + " (one thread each), was " + workers
                    + "; give it QueueExecutor.virtualThreads() for many IO-bound jobs");
        }
    }

    private static void checkKeyField(KeyLimit limit, Collection<WorkUnit<?>> units) {
        if (limit.source() != KeyLimit.Source.ARGS || units.isEmpty()) {
            return;
        }
        boolean someHaveIt = units.stream().map(WorkUnit::type)
                .anyMatch(type -> !type.isRecord() || Arrays.stream(type.getRecordComponents())
                        .anyMatch(c -> c.getName().equals(limit.field())));
        if (!someHaveIt) {
            throw new IllegalArgumentException("keyLimit field '" + limit.field() + "' is not a field of any registered"
                    + " worker's args (" + units.stream().map(u -> u.type().getSimpleName()).sorted().toList()
                    + "): every job would have the key \"\"");
        }
    }

    private ClientConfig.QueueConfig limitable(String name, String option) {
        ClientConfig.QueueConfig queue = queues.get(InsertOptions.validateQueue(name));
        if (queue == null || queue.atMostOnce()) {
            throw new IllegalArgumentException(option + " needs queue " + name + " configured first, at least once"
                    + " (an at-most-once claim deletes its jobs, leaving none to count)");
        }
        return queue;
    }
}
