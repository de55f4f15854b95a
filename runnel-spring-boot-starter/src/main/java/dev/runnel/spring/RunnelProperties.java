package dev.runnel.spring;

import dev.runnel.JobState;
import dev.runnel.PeriodicJob;
import dev.runnel.Runnel;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code runnel.*} properties. Unknown or misspelt ones fail the application's start with
 * their name ({@code ignoreUnknownFields = false}), as do values Runnel refuses. A setting left
 * out keeps {@link dev.runnel.RunnelBuilder}'s default, named there.
 *
 * <pre>
 * runnel.database-url=sqlite://jobs.db          # or postgres://...; without it, the application's DataSource
 * runnel.auto-migrate=true
 * runnel.queues.default.max-workers=100
 * runnel.queues.mail.max-workers=10
 * runnel.queues.mail.delivery=at-most-once
 * runnel.queues.reports.executor=platform        # CPU-bound: a pool of max-workers platform threads
 * runnel.queues.reports.nice=10                  # at lowered priority (Linux)
 * runnel.embedded=true                           # every other queue's jobs at lowered priority too
 * runnel.periodic.purge.every=5m
 * runnel.periodic.purge.kind=purge
 * </pre>
 */
@ConfigurationProperties(prefix = "runnel", ignoreUnknownFields = false)
public class RunnelProperties {
    /** Whether the starter configures a Runnel client at all. */
    private boolean enabled = true;
    /**
     * The database: sqlite://path/to/file.db, sqlite:///absolute/path.db or
     * postgres://user:password@host:5432/database?schema=jobs. Without it, Runnel uses the
     * application's DataSource (PostgreSQL or SQLite).
     */
    private String databaseUrl;
    /** The Postgres schema Runnel's tables live in, when it uses the application's DataSource. */
    private String schema;
    /** Whether the schema is migrated to this Runnel's version at startup; else run `runnel migrate up` when deploying. */
    private boolean autoMigrate;
    /** This client's id in the jobs it works; default host name, process id and a random suffix. */
    private String clientId;
    /**
     * Whether job threads run at lowered priority so that the application's requests keep their
     * latency: queues without an executor of their own run on platform threads at nice 10 (Linux).
     * Default false.
     */
    private boolean embedded;
    /** The queues this application works, by name, each with its concurrency and delivery. */
    private Map<String, Queue> queues = new LinkedHashMap<>();
    /** Periodic jobs, by name: a cron expression or an interval, and the kind and args of the job. */
    private Map<String, Periodic> periodic = new LinkedHashMap<>();
    /** How long an attempt may run unless its worker says otherwise; 0 for no limit. Default 1m. */
    private Duration jobTimeout;
    /**
     * How long stopping waits for running jobs, and then again for the jobs it cancelled: twice it
     * must fit in spring.lifecycle.timeout-per-shutdown-phase. Default 10s.
     */
    private Duration stopTimeout;
    /** How often each queue looks for jobs when nothing wakes it. Default 1s. */
    private Duration fetchPollInterval;
    /**
     * How often the client looks for jobs in its queues without limits while it hears the
     * database's notifications (Postgres LISTEN): only a safety net, since every write through
     * Runnel that makes jobs available notifies. Default 10s; the fetch poll interval's value turns
     * it off.
     */
    private Duration fetchSafetyPollInterval;
    /** The least time between two fetches triggered by inserts. Default 100ms. */
    private Duration fetchCooldown;
    /** How often the leader makes due scheduled and retryable jobs available and enqueues periodic jobs. Default 1s. */
    private Duration schedulerInterval;
    /** How often this client tells the cluster it is alive, 100ms to 1m. Default 2s. */
    private Duration heartbeatInterval;
    /** How long a client may go without a heartbeat before its running jobs are rescued. Default 10s. */
    private Duration heartbeatTimeout;
    /** How long the leader's lease lasts unless renewed, 1s to 10m. Default 10s. */
    private Duration leaderLease;
    /** The age at which a job of a client that is not registered at all is rescued. Default 1h. */
    private Duration rescueThreshold;
    /** How often the leader deletes jobs past their retention, 100ms to 1h. Default 30s. */
    private Duration cleanerInterval;
    /** How long finished jobs are kept before the cleaner deletes them. */
    private Retention retention = new Retention();
    /** What the Actuator health indicator checks. */
    private Health health = new Health();
    /** Micrometer meters, with runnel-micrometer and a MeterRegistry bean. */
    private Metrics metrics = new Metrics();
    /** OpenTelemetry spans, with runnel-otel and an OpenTelemetry bean. */
    private Tracing tracing = new Tracing();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getDatabaseUrl() {
        return databaseUrl;
    }

    public void setDatabaseUrl(String databaseUrl) {
        this.databaseUrl = databaseUrl;
    }

    public String getSchema() {
        return schema;
    }

    public void setSchema(String schema) {
        this.schema = schema;
    }

    public boolean isAutoMigrate() {
        return autoMigrate;
    }

    public void setAutoMigrate(boolean autoMigrate) {
        this.autoMigrate = autoMigrate;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public boolean isEmbedded() {
        return embedded;
    }

    public void setEmbedded(boolean embedded) {
        this.embedded = embedded;
    }

    public Map<String, Queue> getQueues() {
        return queues;
    }

    public void setQueues(Map<String, Queue> queues) {
        this.queues = queues;
    }

    public Map<String, Periodic> getPeriodic() {
        return periodic;
    }

    public void setPeriodic(Map<String, Periodic> periodic) {
        this.periodic = periodic;
    }

    public Duration getJobTimeout() {
        return jobTimeout;
    }

    public void setJobTimeout(Duration jobTimeout) {
        this.jobTimeout = jobTimeout;
    }

    public Duration getStopTimeout() {
        return stopTimeout;
    }

    public void setStopTimeout(Duration stopTimeout) {
        this.stopTimeout = stopTimeout;
    }

    public Duration getFetchPollInterval() {
        return fetchPollInterval;
    }

    public void setFetchPollInterval(Duration fetchPollInterval) {
        this.fetchPollInterval = fetchPollInterval;
    }

    public Duration getFetchSafetyPollInterval() {
        return fetchSafetyPollInterval;
    }

    public void setFetchSafetyPollInterval(Duration fetchSafetyPollInterval) {
        this.fetchSafetyPollInterval = fetchSafetyPollInterval;
    }

    public Duration getFetchCooldown() {
        return fetchCooldown;
    }

    public void setFetchCooldown(Duration fetchCooldown) {
        this.fetchCooldown = fetchCooldown;
    }

    public Duration getSchedulerInterval() {
        return schedulerInterval;
    }

    public void setSchedulerInterval(Duration schedulerInterval) {
        this.schedulerInterval = schedulerInterval;
    }

    public Duration getHeartbeatInterval() {
        return heartbeatInterval;
    }

    public void setHeartbeatInterval(Duration heartbeatInterval) {
        this.heartbeatInterval = heartbeatInterval;
    }

    public Duration getHeartbeatTimeout() {
        return heartbeatTimeout;
    }

    public void setHeartbeatTimeout(Duration heartbeatTimeout) {
        this.heartbeatTimeout = heartbeatTimeout;
    }

    public Duration getLeaderLease() {
        return leaderLease;
    }

    public void setLeaderLease(Duration leaderLease) {
        this.leaderLease = leaderLease;
    }

    public Duration getRescueThreshold() {
        return rescueThreshold;
    }

    public void setRescueThreshold(Duration rescueThreshold) {
        this.rescueThreshold = rescueThreshold;
    }

    public Duration getCleanerInterval() {
        return cleanerInterval;
    }

    public void setCleanerInterval(Duration cleanerInterval) {
        this.cleanerInterval = cleanerInterval;
    }

    public Retention getRetention() {
        return retention;
    }

    public void setRetention(Retention retention) {
        this.retention = retention;
    }

    public Health getHealth() {
        return health;
    }

    public void setHealth(Health health) {
        this.health = health;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public void setMetrics(Metrics metrics) {
        this.metrics = metrics;
    }

    public Tracing getTracing() {
        return tracing;
    }

    public void setTracing(Tracing tracing) {
        this.tracing = tracing;
    }

    /** A queue this application works. */
    public static class Queue {
        /** The default {@link #maxWorkers}: {@value}. */
        public static final int DEFAULT_MAX_WORKERS = 100;

        /** The most jobs of this queue this application runs at once. */
        private int maxWorkers = DEFAULT_MAX_WORKERS;
        /** at-least-once (a job cut short by a dead process runs again) or at-most-once (it is lost). */
        private Runnel.Delivery delivery = Runnel.Delivery.AT_LEAST_ONCE;
        /** At most this many of the queue's jobs running at once across every client; none by default. */
        private Integer globalLimit;
        /** At most rate-limit-jobs of the queue's jobs started in any rate-limit-period; none by default. */
        private Integer rateLimitJobs;
        /** The period of the rate limit (with rate-limit-jobs). */
        private Duration rateLimitPeriod;
        /** At most key-limit of the queue's jobs running at once per key (with key-field); none by default. */
        private Integer keyLimit;
        /** Where the key is, as args.FIELD or metadata.FIELD (with key-limit). */
        private String keyField;
        /**
         * What the queue's jobs run on: virtual (IO-bound jobs) or platform (a pool of max-workers
         * platform threads, for CPU-bound jobs). Default: virtual, or with runnel.embedded=true a
         * platform pool at nice 10.
         */
        private Executor executor;
        /** The platform pool's Linux nice value, 0 (normal) to 19 (lowest); with executor=platform. Default 0. */
        private Integer nice;

        /** What a queue's jobs run on. */
        public enum Executor { VIRTUAL, PLATFORM }

        public Executor getExecutor() {
            return executor;
        }

        public void setExecutor(Executor executor) {
            this.executor = executor;
        }

        public Integer getNice() {
            return nice;
        }

        public void setNice(Integer nice) {
            this.nice = nice;
        }

        public int getMaxWorkers() {
            return maxWorkers;
        }

        public void setMaxWorkers(int maxWorkers) {
            this.maxWorkers = maxWorkers;
        }

        public Runnel.Delivery getDelivery() {
            return delivery;
        }

        public void setDelivery(Runnel.Delivery delivery) {
            this.delivery = delivery;
        }

        public Integer getGlobalLimit() {
            return globalLimit;
        }

        public void setGlobalLimit(Integer globalLimit) {
            this.globalLimit = globalLimit;
        }

        public Integer getRateLimitJobs() {
            return rateLimitJobs;
        }

        public void setRateLimitJobs(Integer rateLimitJobs) {
            this.rateLimitJobs = rateLimitJobs;
        }

        public Duration getRateLimitPeriod() {
            return rateLimitPeriod;
        }

        public void setRateLimitPeriod(Duration rateLimitPeriod) {
            this.rateLimitPeriod = rateLimitPeriod;
        }

        public Integer getKeyLimit() {
            return keyLimit;
        }

        public void setKeyLimit(Integer keyLimit) {
            this.keyLimit = keyLimit;
        }

        public String getKeyField() {
            return keyField;
        }

        public void setKeyField(String keyField) {
            this.keyField = keyField;
        }
    }

    /** A periodic job: exactly one of cron and every, and the kind of job it enqueues. */
    public static class Periodic {
        /** A cron expression: five Unix fields, six with seconds first, or @hourly, @daily... */
        private String cron;
        /** An interval in whole seconds, at least 1s, ticks aligned to the epoch. */
        private Duration every;
        /** The zone a cron expression is read in; default UTC. */
        private ZoneId zone;
        /** The kind of job enqueued at each tick. */
        private String kind;
        /** The job's args, a JSON object. */
        private String args = "{}";
        /** The queue of the enqueued jobs; default the kind's, else "default". */
        private String queue;
        /** The priority of the enqueued jobs, 1 (first) to 4. */
        private Integer priority;
        /** The most attempts of each enqueued job. */
        private Integer maxAttempts;
        /** Tags of the enqueued jobs. */
        private List<String> tags = new ArrayList<>();
        /** What happens to ticks missed while no client ran: skip, or latest (run the latest once). */
        private PeriodicJob.CatchUp catchUp = PeriodicJob.CatchUp.SKIP;
        /** Whether one job is enqueued when this definition is first deployed, or deployed changed. */
        private boolean runOnStart;

        public String getCron() {
            return cron;
        }

        public void setCron(String cron) {
            this.cron = cron;
        }

        public Duration getEvery() {
            return every;
        }

        public void setEvery(Duration every) {
            this.every = every;
        }

        public ZoneId getZone() {
            return zone;
        }

        public void setZone(ZoneId zone) {
            this.zone = zone;
        }

        public String getKind() {
            return kind;
        }

        public void setKind(String kind) {
            this.kind = kind;
        }

        public String getArgs() {
            return args;
        }

        public void setArgs(String args) {
            this.args = args;
        }

        public String getQueue() {
            return queue;
        }

        public void setQueue(String queue) {
            this.queue = queue;
        }

        public Integer getPriority() {
            return priority;
        }

        public void setPriority(Integer priority) {
            this.priority = priority;
        }

        public Integer getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(Integer maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public List<String> getTags() {
            return tags;
        }

        public void setTags(List<String> tags) {
            this.tags = tags;
        }

        public PeriodicJob.CatchUp getCatchUp() {
            return catchUp;
        }

        public void setCatchUp(PeriodicJob.CatchUp catchUp) {
            this.catchUp = catchUp;
        }

        public boolean isRunOnStart() {
            return runOnStart;
        }

        public void setRunOnStart(boolean runOnStart) {
            this.runOnStart = runOnStart;
        }
    }

    /** How long finished jobs are kept; a state named in {@code forever} is never cleaned. */
    public static class Retention {
        /** How long completed jobs are kept; default 24h. */
        private Duration completed;
        /** How long cancelled jobs are kept; default 24h. */
        private Duration cancelled;
        /** How long discarded jobs are kept; default 7d. */
        private Duration discarded;
        /** Final states whose jobs are kept forever: completed, cancelled, discarded. */
        private Set<JobState> forever = EnumSet.noneOf(JobState.class);

        public Duration getCompleted() {
            return completed;
        }

        public void setCompleted(Duration completed) {
            this.completed = completed;
        }

        public Duration getCancelled() {
            return cancelled;
        }

        public void setCancelled(Duration cancelled) {
            this.cancelled = cancelled;
        }

        public Duration getDiscarded() {
            return discarded;
        }

        public void setDiscarded(Duration discarded) {
            this.discarded = discarded;
        }

        public Set<JobState> getForever() {
            return forever;
        }

        public void setForever(Set<JobState> forever) {
            this.forever = forever;
        }
    }

    /** What the Actuator health indicator checks. */
    public static class Health {
        /** The default {@link #stuckAfter}: 10 minutes. */
        public static final Duration DEFAULT_STUCK_AFTER = Duration.ofMinutes(10);

        /**
         * A queue this application works, not paused, whose oldest available job has waited longer
         * than this is reported stuck and the health DOWN; 0 turns the check off. Each check reads
         * the oldest available job of each such queue.
         */
        private Duration stuckAfter = DEFAULT_STUCK_AFTER;

        public Duration getStuckAfter() {
            return stuckAfter;
        }

        public void setStuckAfter(Duration stuckAfter) {
            this.stuckAfter = stuckAfter;
        }
    }

    /** Runnel's Micrometer meters ({@code dev.runnel.micrometer.RunnelMetrics}). */
    public static class Metrics {
        /**
         * Whether the client records runnel.* meters on the application's MeterRegistry, when
         * runnel-micrometer is on the class path and there is a MeterRegistry bean.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Runnel's OpenTelemetry spans ({@code dev.runnel.otel.RunnelTracing}). */
    public static class Tracing {
        /**
         * Whether the client makes a span for each insert and each attempt, when runnel-otel is
         * on the class path and there is an OpenTelemetry bean.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
