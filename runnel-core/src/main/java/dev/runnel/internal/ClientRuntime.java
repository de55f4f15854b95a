package dev.runnel.internal;

import dev.runnel.JobState;
import dev.runnel.PeriodicJob;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobQueuesDueParams;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueRateLimitParams;
import dev.runnel.driver.QueueRegisterParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started client's moving parts, wired together: the heartbeat that keeps it registered, the
 * elector, the maintenance services that run while it leads (scheduler, rescuer, cleaner,
 * statistics keeper, periodic enqueuer), the completer, a producer per queue, and the deadline
 * watcher; at start, the periodic jobs its code declares are stored. Started and stopped as one, in
 * the order that leaves nothing behind: a stop ends fetching, lets running jobs finish or cancels
 * them, writes every outcome, then gives up the lease and records the stop.
 */
public final class ClientRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(ClientRuntime.class);

    private final ClientConfig config;
    private final Driver driver;
    private final ClientHealth health = new ClientHealth();
    private final Heartbeat heartbeat;
    private final Elector elector;
    private final List<MaintenanceTicker> maintenance = new ArrayList<>();
    private final Map<String, Producer> producers = new LinkedHashMap<>();
    /** Whether the driver's notifications arrive now: it said {@link Driver#LISTENING} last. */
    private final AtomicBoolean listening = new AtomicBoolean();
    /** The queues' settings, one reading shared by the producers. */
    private final SharedQueueList queueList;
    /**
     * The safety poll of every queue while the client listens, started when it first does; null
     * where the producers poll themselves.
     */
    private final DueQueues dueQueues;
    private final Completer completer;
    private final DeadlineWatcher deadlines;
    private final CancelWatcher cancels;
    /** Null when the client has no runtime listeners: nobody to count for. */
    private final JobCounter jobCounter;
    private AutoCloseable insertSubscription;

    public ClientRuntime(ClientConfig config, Driver driver) {
        this.config = config;
        this.driver = driver;
        this.heartbeat = new Heartbeat(driver, config.clock(), config.clientId(), config.heartbeatInterval(),
                config.heartbeatTimeout(), metadata(config), health);
        this.elector = new Elector(driver, config.clock(), config.clientId(), config.leaderLease(), health);
        maintenance.add(new Scheduler(driver, config.clock(), config.schedulerInterval(), elector, this::wakeAll));
        maintenance.add(new Rescuer(driver, config.clock(), new Rescuer.Config(config.clientId(),
                config.heartbeatInterval(), config.heartbeatTimeout(), config.rescueThreshold()), elector, health));
        maintenance.add(new Cleaner(driver, config.clock(), new Cleaner.Config(config.clientId(),
                config.cleanerInterval(), config.retention()), elector));
        maintenance.add(new StatisticsKeeper(driver, elector));
        maintenance.add(new PeriodicEnqueuer(driver, config.clock(), new PeriodicEnqueuer.Config(config.clientId(),
                config.schedulerInterval(), periodicGrace(config.leaderLease())), elector, this::wake));
        maintenance.forEach(elector::wakeOnElection);
        RuntimeListeners runtimeListeners = new RuntimeListeners(config.runtimeListeners());
        this.jobCounter = runtimeListeners.isEmpty() ? null
                : new JobCounter(driver, config.jobCountInterval(), elector, runtimeListeners);
        this.completer = new Completer(driver, config.listeners(), new Completer.Config(config.completerBatchSize(),
                config.completerFlushInterval(), config.stopTimeout(), config.clientId(),
                Duration.ZERO.equals(config.retention().get(JobState.COMPLETED))), config.clock(),
                config.retryPolicy(), runtimeListeners, this::wakeReleased);
        JobRunner runner = new JobRunner(config.units(), config.clock(), config.jobTimeout(), config.retryPolicy(),
                config.hooks(), config.codec());
        ClaimClock claimClock = new ClaimClock(config.clock());
        this.queueList = new SharedQueueList(driver::queueList, FetchPacer.LIMIT_CHECK_IDLE);
        this.dueQueues = driver.supportsListenNotify() && !config.queues().isEmpty()
                && config.fetchSafetyPollInterval().compareTo(config.fetchPollInterval()) > 0
                ? new DueQueues(config.fetchSafetyPollInterval(), List.copyOf(config.queues().keySet()),
                        queues -> driver.jobQueuesDue(new JobQueuesDueParams(queues, config.clock().instant())),
                        listening::get, queue -> toProducer(queue, Producer::pollNow))
                : null;
        Duration safetyPoll = dueQueues != null ? FetchPacer.NEVER : config.fetchSafetyPollInterval();
        config.queues().forEach((queue, q) -> producers.put(queue, new Producer(new Producer.Config(queue,
                q.maxWorkers(), config.fetchPollInterval(), safetyPoll, config.fetchCooldown(),
                config.clientId(), q.atMostOnce(), q.limited(), q.executorOrDefault()),
                driver, queueList, listening::get, runner, completer, config.clock(), claimClock,
                runtimeListeners)));
        JobStartAlarm alarm = new JobStartAlarm();
        producers.values().forEach(p -> p.watchedBy(alarm));
        this.deadlines = new DeadlineWatcher(producers.values().stream()
                .<Supplier<Collection<RunningJob>>>map(p -> p::running).toList());
        runner.watchedBy(deadlines);
        this.cancels = new CancelWatcher(driver, List.copyOf(producers.values()), alarm);
    }

    /**
     * Registers the client and its queues (throwing when it cannot, before anything else starts), then starts
     * every service, the producers first. The first election runs at once, so a lone client leads from the start.
     */
    public void start() {
        heartbeat.register();
        driver.queueRegister(new QueueRegisterParams(List.copyOf(config.queues().keySet()), config.clock().instant()));
        config.queues().forEach((queue, q) -> {
            if (q.globalLimit().isPresent()) {
                driver.queueSetGlobalLimit(new QueueGlobalLimitParams(queue, q.globalLimit(), config.clock().instant()));
            }
            if (q.rateLimit().isPresent()) {
                driver.queueSetRateLimit(new QueueRateLimitParams(queue, q.rateLimit(), config.clock().instant()));
            }
            if (q.keyLimit().isPresent()) {
                driver.queueSetKeyLimit(new QueueKeyLimitParams(queue, q.keyLimit(), config.clock().instant()));
            }
        });
        declarePeriodicJobs();
        // What a job needs first, then the producers: a job waiting at the start is claimed before
        // the other services' threads start and their first rounds (the election, the maintenance
        // it wakes) compete with its claim.
        completer.start();
        deadlines.start();
        cancels.start();
        producers.values().forEach(Producer::start);
        heartbeat.start();
        elector.start();
        maintenance.forEach(Service::start);
        if (jobCounter != null) {
            jobCounter.start();
        }
        if (driver.supportsListenNotify() && !producers.isEmpty()) {
            insertSubscription = driver.listenInserts(this::notified);
        }
    }

    /**
     * Stops fetching, waits up to {@code timeout} for running jobs, cancels those still running and
     * waits up to the stop timeout for them, writes every outcome, and leaves the cluster.
     */
    public void stop(Duration timeout) {
        closeQuietly(insertSubscription);
        if (dueQueues != null) {
            dueQueues.stop();
        }
        producers.values().forEach(Producer::stop);
        maintenance.forEach(Service::stop);
        if (jobCounter != null) {
            jobCounter.stop();
        }
        try {
            if (!awaitIdle(System.nanoTime() + timeout.toNanos())) {
                producers.values().forEach(p -> p.cancelRunning("client stopping"));
                if (!awaitIdle(System.nanoTime() + config.stopTimeout().toNanos())) {
                    LOG.warn("jobs ignored cancellation for {}; they stay running until rescued", config.stopTimeout());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producers.values().forEach(Producer::releaseThreads);
        deadlines.stop();
        cancels.stop();
        completer.stop();
        elector.stop();
        heartbeat.stop();
    }

    /**
     * A notification on the insert channel: a queue name (jobs were inserted, scheduled, retried or
     * resumed there), or a control message, which starts with a control character (no queue name
     * holds one): a cancel was requested somewhere.
     */
    private void notified(String payload) {
        if (payload.equals(Driver.LISTENING)) {
            // Each producer fetches once, for what became available while nothing was heard.
            listening.set(true);
            if (dueQueues != null) {
                dueQueues.start(); // once: a client whose driver never says it listens has no thread for it
            }
            wakeAll();
        } else if (payload.equals(Driver.NOT_LISTENING)) {
            listening.set(false);
            producers.values().forEach(Producer::pollSoon);
        } else if (payload.equals(Driver.LIMITS_CHANGED)) {
            queueList.invalidate();
            producers.values().forEach(Producer::limitsChanged);
        } else if (!payload.isEmpty() && Character.isISOControl(payload.charAt(0))) {
            cancels.cancelRequested();
        } else {
            wake(payload);
        }
    }

    /** Looks for cancels requested of this client's running jobs now (an in-process cancel needs no notification). */
    public void checkCancels() {
        cancels.cancelRequested();
    }

    /** Wakes the producer of {@code queue}, if this client works it. */
    public void wake(String queue) {
        toProducer(queue, Producer::signalInsert);
    }

    /** Tells the producer of {@code queue}, if this client works it. */
    private void toProducer(String queue, Consumer<Producer> tell) {
        Producer p = producers.get(queue);
        if (p != null) {
            tell.accept(p);
        }
    }

    /** Whether this client leads now. */
    public boolean isLeader() {
        return elector.isLeader();
    }

    private void wakeAll() {
        producers.values().forEach(Producer::signalInsert);
    }

    /** After this client stored an outcome that may have released jobs, in any of its queues. */
    private void wakeReleased() {
        producers.values().forEach(Producer::signalRelease);
    }

    private boolean awaitIdle(long deadlineNanos) throws InterruptedException {
        boolean idle = true;
        for (Producer p : producers.values()) {
            idle &= p.awaitIdle(deadlineNanos);
        }
        return idle;
    }

    /**
     * Stores the periodic jobs this client's code declares. Each client of a deployment declares
     * the same ones; only the first to store a new or changed definition changes anything.
     */
    private void declarePeriodicJobs() {
        for (PeriodicJob job : config.periodicJobs()) {
            if (driver.periodicUpsert(PeriodicDefinitions.upsert(job, true, config.clock().instant()))) {
                LOG.info("periodic job {} stored: {}", job.name(), job);
            }
        }
    }

    /**
     * How late a periodic tick may be enqueued before it counts as missed: a minute, or twice the
     * leader lease if longer, so that a change of leader (within about 1.3 leases) misses no tick.
     */
    static Duration periodicGrace(Duration leaderLease) {
        Duration twice = leaderLease.multipliedBy(2);
        return twice.compareTo(PeriodicJob.GRACE) > 0 ? twice : PeriodicJob.GRACE;
    }

    /** What the clients table shows of this client: its host, process and queues. */
    private static String metadata(ClientConfig config) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("host", System.getenv().getOrDefault("HOSTNAME", "unknown"));
        meta.put("pid", ProcessHandle.current().pid());
        Map<String, Integer> queues = new LinkedHashMap<>();
        config.queues().forEach((name, q) -> queues.put(name, q.maxWorkers()));
        meta.put("queues", queues);
        try {
            return JobJson.WRITER.writeValueAsString(meta);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "{}";
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("closing {} failed", c, e);
        }
    }
}
