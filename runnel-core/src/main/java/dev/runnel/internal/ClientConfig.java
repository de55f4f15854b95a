package dev.runnel.internal;

import dev.runnel.KeyLimit;
import dev.runnel.RateLimit;
import dev.runnel.JobListener;
import dev.runnel.JobState;
import dev.runnel.PeriodicJob;
import dev.runnel.QueueExecutor;
import dev.runnel.RetryPolicy;
import dev.runnel.RuntimeListener;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A client's settings, copied from its builder at {@code build()} and validated there: the
 * builder may change afterwards, the client does not.
 *
 * @param retention how long each final state's jobs are kept; a state absent is kept forever
 * @param hooks the insert and work middleware and the error handler
 * @param codec how args (and the metadata given at insert) are written and read
 * @param runtimeListeners what hears of claims, outcome writes and, on the leader, job counts
 * @param jobCountInterval how often the leader counts jobs for the runtime listeners
 */
public record ClientConfig(
        String clientId,
        Clock clock,
        Map<String, QueueConfig> queues,
        Map<String, WorkUnit<?>> units,
        List<JobListener> listeners,
        Hooks hooks,
        ArgsCodec codec,
        List<RuntimeListener> runtimeListeners,
        Duration jobCountInterval,
        List<PeriodicJob> periodicJobs,
        RetryPolicy retryPolicy,
        Duration fetchPollInterval,
        Duration fetchSafetyPollInterval,
        Duration fetchCooldown,
        Duration jobTimeout,
        Duration schedulerInterval,
        Duration stopTimeout,
        int completerBatchSize,
        Duration completerFlushInterval,
        Duration heartbeatInterval,
        Duration heartbeatTimeout,
        Duration leaderLease,
        Duration rescueThreshold,
        Duration cleanerInterval,
        Map<JobState, Duration> retention,
        boolean autoMigrate,
        boolean stopOnShutdown) {

    /**
     * A queue this client works: at most {@code maxWorkers} jobs at once, claimed at most once or
     * not, and, when given, at most {@code globalLimit} running and {@code rateLimit} started per
     * period across all clients; its jobs run on {@code executor}, absent until the builder settles
     * it at {@code build()} (by the embedded switch when not given).
     */
    public record QueueConfig(int maxWorkers, boolean atMostOnce, OptionalInt globalLimit, Optional<RateLimit> rateLimit,
            Optional<KeyLimit> keyLimit, Optional<QueueExecutor> executor) {
        /** A queue without limits, its executor not yet chosen. */
        public QueueConfig(int maxWorkers, boolean atMostOnce) {
            this(maxWorkers, atMostOnce, OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }

        /** This queue with a global limit. */
        public QueueConfig withGlobalLimit(int limit) {
            return new QueueConfig(maxWorkers, atMostOnce, OptionalInt.of(limit), rateLimit, keyLimit, executor);
        }

        /** This queue with a rate limit. */
        public QueueConfig withRateLimit(RateLimit limit) {
            return new QueueConfig(maxWorkers, atMostOnce, globalLimit, Optional.of(limit), keyLimit, executor);
        }

        /** This queue with a per-key limit. */
        public QueueConfig withKeyLimit(KeyLimit limit) {
            return new QueueConfig(maxWorkers, atMostOnce, globalLimit, rateLimit, Optional.of(limit), executor);
        }

        /** This queue with its jobs run on {@code executor}. */
        public QueueConfig withExecutor(QueueExecutor executor) {
            return new QueueConfig(maxWorkers, atMostOnce, globalLimit, rateLimit, keyLimit, Optional.of(executor));
        }

        /** What its jobs run on: virtual threads unless chosen otherwise. */
        public QueueExecutor executorOrDefault() {
            return executor.orElse(QueueExecutor.virtualThreads());
        }

        /** Whether its claims keep to a limit. */
        public boolean limited() {
            return globalLimit.isPresent() || rateLimit.isPresent() || keyLimit.isPresent();
        }
    }

    public ClientConfig {
        queues = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(queues));
        units = java.util.Collections.unmodifiableMap(WorkUnit.readingWith(units, codec));
        listeners = List.copyOf(listeners);
        runtimeListeners = List.copyOf(runtimeListeners);
        periodicJobs = List.copyOf(periodicJobs);
        retention = Map.copyOf(retention);
    }
}
