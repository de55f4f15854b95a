package dev.runnel.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobCancel;
import dev.runnel.JobDiscard;
import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.JobSnooze;
import dev.runnel.RetryPolicy;
import dev.runnel.Worker;
import dev.runnel.driver.JobJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Works one claimed job on the calling thread and turns whatever happened into an {@link Outcome}:
 * the worker's return or exception, an unknown kind, undecodable args, a timeout or a stop.
 */
public final class JobRunner {
    /** Stack traces are kept on the job up to this many characters; deeper frames add little. */
    static final int MAX_TRACE_CHARS = 8_000;

    private static final ObjectMapper MAPPER =
            JobJson.newMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Map<String, WorkUnit<?>> units;
    private final Map<String, ObjectReader> readers = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration defaultTimeout;
    private final RetryPolicy retryPolicy;

    public JobRunner(Map<String, WorkUnit<?>> units, Clock clock, Duration defaultTimeout, RetryPolicy retryPolicy) {
        this.units = Map.copyOf(units);
        this.clock = clock;
        this.defaultTimeout = defaultTimeout;
        this.retryPolicy = retryPolicy;
    }

    /** Works {@code running} and returns its outcome; never throws. */
    public Outcome run(RunningJob running) {
        JobRow row = running.row;
        WorkUnit<?> unit = units.get(row.kind());
        if (unit == null) {
            // Another deployment may know the kind: record it and retry with backoff.
            Instant now = clock.instant();
            JobError error = new JobError(row.attempt(), now,
                    "no worker is registered for kind '" + row.kind() + "' in this client", "");
            return Outcome.failed(row, now, now.plus(retryPolicy.delay(row.attempt())), error, Duration.ZERO);
        }
        return runUnit(unit, running);
    }

    private <T extends JobArgs> Outcome runUnit(WorkUnit<T> unit, RunningJob running) {
        JobRow row = running.row;
        T args;
        try {
            args = readers.computeIfAbsent(unit.kind(), k -> MAPPER.readerFor(unit.type())).readValue(row.args());
        } catch (Exception e) {
            // Retrying cannot decode it any better: discard at once with the reason.
            Instant now = clock.instant();
            JobError error = new JobError(row.attempt(), now, "args could not be decoded as "
                    + unit.type().getName() + ": " + e.getMessage(), trace(e));
            return Outcome.discarded(row, now, error, Duration.ZERO);
        }
        Job<T> job = new Job<>(row, args, running);
        Worker<T> worker = unit.worker();
        Duration timeout = timeoutOf(worker, job);
        if (timeout.isZero()) {
            running.bind(Thread.currentThread(), null, Long.MAX_VALUE);
        } else {
            running.bind(Thread.currentThread(), clock.instant().plus(timeout), running.startNanos + timeout.toNanos());
        }
        Throwable failure = null;
        try {
            worker.work(job);
        } catch (Throwable t) {
            failure = t;
        }
        Thread.interrupted(); // a cancel that arrived after the work returned must not leak
        Instant now = clock.instant();
        Duration runTime = Duration.ofNanos(System.nanoTime() - running.startNanos);
        return switch (failure) {
            case null -> Outcome.completed(row, now, runTime);
            case JobSnooze s -> Outcome.snoozed(row, now, s.duration(), runTime);
            case JobCancel c -> Outcome.cancelled(row, now, new JobError(row.attempt(), now,
                    "cancelled by worker: " + c.getMessage(), ""), runTime);
            case JobDiscard d -> Outcome.discarded(row, now, new JobError(row.attempt(), now,
                    "discarded by worker: " + d.getMessage(), ""), runTime);
            default -> failed(worker, job, running, failure, now, runTime);
        };
    }

    private <T extends JobArgs> Outcome failed(
            Worker<T> worker, Job<T> job, RunningJob running, Throwable failure, Instant now, Duration runTime) {
        JobRow row = job.row();
        String message = String.valueOf(failure);
        if (running.cause() != null) {
            message = running.reason() + " (" + message + ")";
        }
        JobError error = new JobError(row.attempt(), now, message, trace(failure));
        if (running.cause() == RunningJob.Cause.STOP) {
            // Interrupted by a stopping client, not by its own fault: run it again as soon as possible.
            return Outcome.failed(row, now, now, error, runTime);
        }
        Duration delay;
        try {
            delay = worker.retryDelay(job).orElseGet(() -> retryPolicy.delay(row.attempt()));
        } catch (RuntimeException e) {
            delay = retryPolicy.delay(row.attempt());
        }
        return Outcome.failed(row, now, now.plus(delay), error, runTime);
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

    static String trace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        String trace = out.toString();
        return trace.length() <= MAX_TRACE_CHARS ? trace : trace.substring(0, MAX_TRACE_CHARS) + "\n\t...";
    }
}
