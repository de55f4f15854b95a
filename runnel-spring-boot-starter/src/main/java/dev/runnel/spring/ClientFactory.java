package dev.runnel.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.ErrorHandler;
import dev.runnel.InsertMiddleware;
import dev.runnel.InsertOptions;
import dev.runnel.JobListener;
import dev.runnel.JobState;
import dev.runnel.QueueExecutor;
import dev.runnel.PeriodicJob;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.RuntimeListener;
import dev.runnel.Schedule;
import dev.runnel.WorkMiddleware;
import dev.runnel.Worker;
import dev.runnel.driver.Driver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds the client from the {@code runnel.*} properties and the application's beans. Every
 * value is handed to {@link RunnelBuilder}, which validates it; its message is wrapped with the
 * property's name, so that a bad value fails the start saying which property to fix.
 */
final class ClientFactory {
    private ClientFactory() {}

    /** What the client is built from, besides the properties. */
    record Parts(Driver driver, Map<String, WorkerBeans.Entry> workers, List<JobListener> listeners,
            List<RuntimeListener> runtimeListeners, List<InsertMiddleware> insertMiddleware,
            List<WorkMiddleware> workMiddleware, ErrorHandler errorHandler, ObjectMapper objectMapper,
            List<RunnelBuilderCustomizer> customizers, Duration shutdownPhase) {}

    static Runnel build(RunnelProperties p, Parts parts) {
        RunnelBuilder b = Runnel.builder();
        b.driver(parts.driver());
        try {
            configure(b, p, parts);
            return b.build();
        } catch (RuntimeException e) {
            parts.driver().close();
            throw e;
        }
    }

    /** The stop timeout the starter uses: the property, or the builder's default. */
    static Duration stopTimeout(RunnelProperties p) {
        return p.getStopTimeout() != null ? p.getStopTimeout() : RunnelBuilder.DEFAULT_STOP_TIMEOUT;
    }

    private static void configure(RunnelBuilder b, RunnelProperties p, Parts parts) {
        Duration stop = stopTimeout(p);
        if (stop.multipliedBy(2).compareTo(parts.shutdownPhase()) >= 0) {
            throw new IllegalArgumentException("runnel.stop-timeout (" + stop + ") waits for running jobs and then"
                    + " again for cancelled ones, up to " + stop.multipliedBy(2) + " in all, which must be less than"
                    + " spring.lifecycle.timeout-per-shutdown-phase (" + parts.shutdownPhase() + "): lower the one or"
                    + " raise the other");
        }
        set("runnel.stop-timeout", stop, b::stopTimeout);
        b.autoMigrate(p.isAutoMigrate());
        b.embedded(p.isEmbedded());
        set("runnel.client-id", p.getClientId(), b::clientId);
        set("runnel.job-timeout", p.getJobTimeout(), b::jobTimeout);
        set("runnel.fetch-poll-interval", p.getFetchPollInterval(), b::fetchPollInterval);
        set("runnel.fetch-safety-poll-interval", p.getFetchSafetyPollInterval(), b::fetchSafetyPollInterval);
        set("runnel.fetch-cooldown", p.getFetchCooldown(), b::fetchCooldown);
        set("runnel.scheduler-interval", p.getSchedulerInterval(), b::schedulerInterval);
        set("runnel.heartbeat-interval", p.getHeartbeatInterval(), b::heartbeatInterval);
        set("runnel.heartbeat-timeout", p.getHeartbeatTimeout(), b::heartbeatTimeout);
        set("runnel.leader-lease", p.getLeaderLease(), b::leaderLease);
        set("runnel.rescue-threshold", p.getRescueThreshold(), b::rescueThreshold);
        set("runnel.cleaner-interval", p.getCleanerInterval(), b::cleanerInterval);
        RunnelProperties.Retention retention = p.getRetention();
        set("runnel.retention.completed", retention.getCompleted(), d -> b.retention(JobState.COMPLETED, d));
        set("runnel.retention.cancelled", retention.getCancelled(), d -> b.retention(JobState.CANCELLED, d));
        set("runnel.retention.discarded", retention.getDiscarded(), d -> b.retention(JobState.DISCARDED, d));
        for (JobState state : retention.getForever()) {
            set("runnel.retention.forever", state, b::retainForever);
        }
        for (Map.Entry<String, RunnelProperties.Queue> e : p.getQueues().entrySet()) {
            String prop = "runnel.queues." + e.getKey();
            RunnelProperties.Queue q = e.getValue();
            if (q.getNice() != null && q.getExecutor() != RunnelProperties.Queue.Executor.PLATFORM) {
                throw new IllegalArgumentException(prop + ".nice needs " + prop + ".executor=platform");
            }
            set(prop, q, v -> {
                if (v.getExecutor() == null) {
                    b.queue(e.getKey(), v.getMaxWorkers(), v.getDelivery());
                } else {
                    b.queue(e.getKey(), v.getMaxWorkers(), v.getDelivery(), executor(v));
                }
            });
            set(prop + ".global-limit", q.getGlobalLimit(), limit -> b.globalLimit(e.getKey(), limit));
            if ((q.getRateLimitJobs() == null) != (q.getRateLimitPeriod() == null)) {
                throw new IllegalArgumentException(prop + ".rate-limit-jobs and " + prop + ".rate-limit-period go together");
            }
            set(prop + ".rate-limit-jobs", q.getRateLimitJobs(),
                    jobs -> b.rateLimit(e.getKey(), jobs, q.getRateLimitPeriod()));
            if ((q.getKeyLimit() == null) != (q.getKeyField() == null)) {
                throw new IllegalArgumentException(prop + ".key-limit and " + prop + ".key-field go together");
            }
            set(prop + ".key-limit", q.getKeyLimit(), limit -> b.keyLimit(e.getKey(), keyLimit(q.getKeyField(), limit)));
        }
        if (p.getQueues().isEmpty() && !parts.workers().isEmpty()) {
            throw new IllegalArgumentException("worker beans " + parts.workers().keySet() + " are defined but no queue"
                    + " is configured, so no job would ever be worked: set runnel.queues."
                    + InsertOptions.DEFAULT_QUEUE + ".max-workers=" + RunnelProperties.Queue.DEFAULT_MAX_WORKERS);
        }
        for (WorkerBeans.Entry w : parts.workers().values()) {
            register(b, w);
        }
        for (Map.Entry<String, RunnelProperties.Periodic> e : p.getPeriodic().entrySet()) {
            set("runnel.periodic." + e.getKey(), e.getValue(), v -> b.periodic(periodic(e.getKey(), v)));
        }
        parts.listeners().forEach(b::listener);
        parts.runtimeListeners().forEach(b::runtimeListener);
        parts.insertMiddleware().forEach(b::insertMiddleware);
        parts.workMiddleware().forEach(b::workMiddleware);
        if (parts.errorHandler() != null) {
            b.errorHandler(parts.errorHandler());
        }
        if (parts.objectMapper() != null) {
            b.objectMapper(parts.objectMapper());
        }
        // Spring stops the client with the context (RunnelLifecycle); a JVM hook of its own would race it.
        b.stopOnShutdown(false);
        parts.customizers().forEach(c -> c.customize(b));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void register(RunnelBuilder b, WorkerBeans.Entry w) {
        try {
            b.worker((Class) w.argsType(), (Worker) w.worker());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("worker bean '" + w.beanName() + "': " + e.getMessage(), e);
        }
    }

    private static PeriodicJob periodic(String name, RunnelProperties.Periodic v) {
        if ((v.getCron() == null) == (v.getEvery() == null)) {
            throw new IllegalArgumentException("give exactly one of cron and every");
        }
        if (v.getKind() == null) {
            throw new IllegalArgumentException("kind is required");
        }
        Schedule schedule = v.getCron() != null ? Schedule.cron(v.getCron()) : Schedule.every(v.getEvery());
        PeriodicJob job = PeriodicJob.of(name, schedule, v.getKind(), v.getArgs());
        if (v.getZone() != null) {
            job = job.zone(v.getZone());
        }
        InsertOptions.Builder options = InsertOptions.builder();
        if (v.getQueue() != null) {
            options.queue(v.getQueue());
        }
        if (v.getPriority() != null) {
            options.priority(v.getPriority());
        }
        if (v.getMaxAttempts() != null) {
            options.maxAttempts(v.getMaxAttempts());
        }
        if (!v.getTags().isEmpty()) {
            options.tags(v.getTags());
        }
        return job.options(options.build()).catchUp(v.getCatchUp()).runOnStart(v.isRunOnStart());
    }

    /** Applies {@code value} when it is set, naming {@code property} in the error of a refused one. */
    private static <T> void set(String property, T value, Consumer<T> setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
        }
    }

    private static QueueExecutor executor(RunnelProperties.Queue q) {
        return switch (q.getExecutor()) {
            case VIRTUAL -> QueueExecutor.virtualThreads();
            case PLATFORM -> QueueExecutor.platformThreads(q.getNice() == null ? 0 : q.getNice());
        };
    }

    /** {@code args.FIELD} or {@code metadata.FIELD} with a limit. */
    private static dev.runnel.KeyLimit keyLimit(String where, int limit) {
        if (where.startsWith("args.")) {
            return dev.runnel.KeyLimit.byArgs(where.substring(5), limit);
        }
        if (where.startsWith("metadata.")) {
            return dev.runnel.KeyLimit.byMetadata(where.substring(9), limit);
        }
        throw new IllegalArgumentException("key-field must be args.FIELD or metadata.FIELD, was " + where);
    }
}
