package dev.runnel.internal;

import dev.runnel.ErrorHandler;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobCancel;
import dev.runnel.JobDiscard;
import dev.runnel.JobError;
import dev.runnel.JobFailure;
import dev.runnel.JobRow;
import dev.runnel.JobSnooze;
import dev.runnel.RetryPolicy;
import dev.runnel.WorkMiddleware;
import dev.runnel.Worker;
import dev.runnel.driver.Times;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.helpers.NOPMDCAdapter;

/**
 * Works one claimed job on the calling thread, through the client's work middleware, and turns
 * whatever happened into an {@link Outcome}: the worker's return (with its output) or exception,
 * an unknown kind, undecodable args, a timeout or a stop; failures pass the error handler first.
 * Meanwhile the SLF4J MDC holds the job's id, kind, queue and attempt ({@link Job#MDC_ID} and
 * the rest), for the worker's log lines and the runtime's own.
 */
public final class JobRunner {
    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    /** Stack traces are kept on the job up to this many characters; deeper frames add little. */
    static final int MAX_TRACE_CHARS = 8_000;

    private final Map<String, WorkUnit<?>> units;
    /** Kinds without a worker already warned of: once per kind and client. */
    private final Set<String> warnedKinds = ConcurrentHashMap.newKeySet();
    private final Clock clock;
    private final Duration defaultTimeout;
    private final RetryPolicy retryPolicy;
    private final List<WorkMiddleware> middleware;
    /** Null when the client has none: failures take their default outcome. */
    private final ErrorHandler errorHandler;
    /**
     * Whether the logging backend keeps an MDC at all: without one (slf4j-simple, the NOP
     * logger) setting it would only build strings per job for nothing.
     */
    private final boolean mdc = !(MDC.getMDCAdapter() instanceof NOPMDCAdapter);
    /** Told of each attempt's deadline; null outside a client (set before its first job starts). */
    private DeadlineWatcher deadlines;

    public JobRunner(Map<String, WorkUnit<?>> units, Clock clock, Duration defaultTimeout, RetryPolicy retryPolicy,
            Hooks hooks, ArgsCodec codec) {
        this.units = Map.copyOf(WorkUnit.readingWith(units, codec));
        this.clock = clock;
        this.defaultTimeout = defaultTimeout;
        this.retryPolicy = retryPolicy;
        this.middleware = hooks.work();
        this.errorHandler = hooks.errorHandler();
    }

    /** The watcher that cancels attempts past their deadline; before the first job. */
    void watchedBy(DeadlineWatcher deadlines) {
        this.deadlines = deadlines;
    }

    /**
     * Works {@code running} and returns its outcome. It never throws: whatever goes wrong after the
     * worker returned (a message that cannot be rendered, a delay that overflows) still gives an
     * outcome, so that every claimed job gets one.
     */
    public Outcome run(RunningJob running) {
        boolean tagged = mdc && tag(running.row);
        try {
            return runGuarded(running);
        } finally {
            if (tagged) {
                untag();
            }
        }
    }

    /** Puts the job in the MDC; false when the logging backend failed at it (the job runs untagged). */
    private static boolean tag(JobRow row) {
        try {
            MDC.put(Job.MDC_ID, Long.toString(row.id()));
            MDC.put(Job.MDC_KIND, row.kind());
            MDC.put(Job.MDC_QUEUE, row.queue());
            MDC.put(Job.MDC_ATTEMPT, Integer.toString(row.attempt()));
            return true;
        } catch (RuntimeException e) {
            untag();
            return false;
        }
    }

    /**
     * Takes the job out of the MDC. The thread ends with the job, but a worker's pool thread would
     * not: leave nothing behind. A failure here must not cost the job its outcome.
     */
    private static void untag() {
        try {
            MDC.remove(Job.MDC_ID);
            MDC.remove(Job.MDC_KIND);
            MDC.remove(Job.MDC_QUEUE);
            MDC.remove(Job.MDC_ATTEMPT);
        } catch (RuntimeException e) {
            // nothing more to do
        }
    }

    private Outcome runGuarded(RunningJob running) {
        try {
            return runChecked(running);
        } catch (Throwable t) {
            JobRow row = running.row;
            Instant now = clock.instant();
            JobError error = new JobError(row.attempt(), now,
                    "Runnel could not record what this attempt ended in: " + describe(t), trace(t));
            return Outcome.failed(row, now, retryAt(now, row.attempt()), error, System.nanoTime() - running.startedNanos);
        }
    }

    private Outcome runChecked(RunningJob running) {
        JobRow row = running.row;
        WorkUnit<?> unit = units.get(row.kind());
        if (unit == null) {
            // Another deployment may know the kind: record it and retry with backoff.
            if (warnedKinds.add(row.kind())) {
                LOG.warn("no worker is registered for kind '{}' in this client; its jobs are recorded as failed and"
                        + " retried (job {} is the first)", row.kind(), row.id());
            }
            Instant now = clock.instant();
            JobError error = new JobError(row.attempt(), now,
                    "no worker is registered for kind '" + row.kind() + "' in this client", "");
            return decide(new JobFailure(row, JobFailure.Cause.UNKNOWN_KIND, error, Optional.empty()), now,
                    0, () -> Outcome.failed(row, now, retryAt(now, row.attempt()), error, 0));
        }
        return runUnit(unit, running);
    }

    private Instant retryAt(Instant now, int attempt) {
        return Times.plusClamped(now, policyDelay(attempt));
    }

    private Duration policyDelay(int attempt) {
        return delay(retryPolicy, attempt);
    }

    /** {@code policy}'s delay after {@code attempt}; the default policy's when a user's policy throws. */
    static Duration delay(RetryPolicy policy, int attempt) {
        try {
            return policy.delay(attempt);
        } catch (RuntimeException e) {
            return RetryPolicy.DEFAULT.delay(attempt);
        }
    }

    private <T extends JobArgs> Outcome runUnit(WorkUnit<T> unit, RunningJob running) {
        JobRow row = running.row;
        if (running.cause() != null) {
            // Cancelled, or its client stopping, while it waited ahead for a slot: it does not start.
            return Outcome.unstarted(row, clock.instant(), running.cause(), running.reason());
        }
        T args;
        try {
            args = unit.reader().readValue(row.args());
        } catch (Exception e) {
            // Retrying cannot decode it any better: discard at once with the reason.
            Instant now = clock.instant();
            JobError error = new JobError(row.attempt(), now, "args could not be decoded as "
                    + unit.type().getName() + ": " + message(e), trace(e));
            return decide(new JobFailure(row, JobFailure.Cause.UNDECODABLE_ARGS, error, Optional.of(e)), now,
                    0, () -> Outcome.discarded(row, now, error, 0));
        }
        Job<T> job = new Job<>(row, args, running);
        Worker<T> worker = unit.worker();
        Duration timeout = timeoutOf(worker, job);
        if (timeout.isZero()) {
            running.bind(Thread.currentThread(), null, 0);
        } else {
            running.bind(Thread.currentThread(), timeout, clock.millis());
            if (deadlines != null) {
                deadlines.deadlineSet(running);
            }
        }
        Throwable failure = null;
        try {
            WorkChain.run(middleware, worker, job);
        } catch (Throwable t) {
            failure = t;
        }
        Thread.interrupted(); // a cancel that arrived after the work returned must not leak
        Instant now = clock.instant();
        long runNanos = System.nanoTime() - running.startedNanos;
        return switch (failure) {
            case null -> Outcome.completed(row, now, running.output(), runNanos);
            case JobSnooze s -> Outcome.snoozed(row, now, s.duration(), runNanos);
            case JobCancel c -> Outcome.cancelled(row, now, new JobError(row.attempt(), now,
                    "cancelled by worker: " + message(c), ""), runNanos);
            case JobDiscard d -> Outcome.discarded(row, now, new JobError(row.attempt(), now,
                    "discarded by worker: " + message(d), ""), runNanos);
            default -> failed(worker, job, running, failure, now, runNanos);
        };
    }

    private <T extends JobArgs> Outcome failed(
            Worker<T> worker, Job<T> job, RunningJob running, Throwable failure, Instant now, long runNanos) {
        JobRow row = job.row();
        String message = describe(failure);
        if (running.cause() != null) {
            message = running.reason() + " (" + message + ")";
        }
        JobError error = new JobError(row.attempt(), now, message, trace(failure));
        if (running.cause() == RunningJob.Cause.STOP) {
            return Outcome.interrupted(row, now, error, runNanos);
        }
        if (running.cause() == RunningJob.Cause.CANCEL) {
            return Outcome.cancelled(row, now, error, runNanos);
        }
        JobFailure.Cause cause = running.cause() == RunningJob.Cause.TIMEOUT
                ? JobFailure.Cause.TIMEOUT : JobFailure.Cause.EXCEPTION;
        return decide(new JobFailure(row, cause, error, Optional.of(failure)), now, runNanos, () -> {
            Duration delay;
            try {
                delay = worker.retryDelay(job).orElseGet(() -> policyDelay(row.attempt()));
            } catch (RuntimeException e) {
                delay = policyDelay(row.attempt());
            }
            return Outcome.failed(row, now, Times.plusClamped(now, delay), error, runNanos);
        });
    }

    /**
     * The outcome of {@code failure}: as the error handler decides, or {@code byDefault} when there
     * is none, it asks for the default, or it fails (throws or returns null): a handler's bug must
     * not cost the job its outcome.
     */
    private Outcome decide(JobFailure failure, Instant now, long runNanos, Supplier<Outcome> byDefault) {
        if (errorHandler == null) {
            return byDefault.get();
        }
        JobRow row = failure.job();
        ErrorHandler.Decision decision;
        try {
            decision = errorHandler.handle(failure);
        } catch (Throwable t) {
            LOG.warn("the error handler threw on the {} failure of job {}; the default applies", failure.cause(),
                    row.id(), t);
            return byDefault.get();
        }
        return switch (decision) {
            case null -> {
                LOG.warn("the error handler returned null for the {} failure of job {}; the default applies",
                        failure.cause(), row.id());
                yield byDefault.get();
            }
            case ErrorHandler.UseDefault d -> byDefault.get();
            case ErrorHandler.RetryAfter r ->
                    Outcome.failed(row, now, Times.plusClamped(now, r.delay()), failure.error(), runNanos);
            case ErrorHandler.Discard d -> {
                JobError e = failure.error();
                yield Outcome.discarded(row, now, new JobError(e.attempt(), e.at(),
                        e.message() + " (discarded by the error handler: " + d.reason() + ")", e.trace()), runNanos);
            }
        };
    }

    private <T extends JobArgs> Duration timeoutOf(Worker<T> worker, Job<T> job) {
        try {
            Optional<Duration> own = worker.timeout(job);
            Duration timeout = own.orElse(defaultTimeout);
            return timeout.isNegative() ? Duration.ZERO : timeout;
        } catch (RuntimeException e) {
            return defaultTimeout;
        }
    }

    /**
     * The stack trace, as much as can be rendered: {@code printStackTrace} calls the exception's own
     * {@code toString}, which may throw.
     */
    static String trace(Throwable t) {
        StringWriter out = new StringWriter();
        try {
            t.printStackTrace(new PrintWriter(out));
        } catch (RuntimeException | Error e) {
            out.write("\n(the rest of the stack trace could not be rendered: " + e.getClass().getName() + ")");
        }
        String trace = out.toString();
        return trace.length() <= MAX_TRACE_CHARS ? trace : trace.substring(0, MAX_TRACE_CHARS) + "\n\t...";
    }

    /** {@code t.toString()}, or its class name when a user's {@code toString} throws. */
    static String describe(Throwable t) {
        try {
            return String.valueOf(t);
        } catch (RuntimeException | Error e) {
            return t.getClass().getName() + " (its toString threw " + e.getClass().getName() + ")";
        }
    }

    /** {@code t.getMessage()}, guarded as {@link #describe} is. */
    private static String message(Throwable t) {
        try {
            return String.valueOf(t.getMessage());
        } catch (RuntimeException | Error e) {
            return describe(t);
        }
    }
}
