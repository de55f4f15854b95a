package dev.runnel.otel;

import dev.runnel.InsertMiddleware;
import dev.runnel.InsertResult;
import dev.runnel.InsertingJob;
import dev.runnel.Job;
import dev.runnel.JobSnooze;
import dev.runnel.WorkMiddleware;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.List;
import java.util.Map;

/**
 * OpenTelemetry spans for Runnel: one for each insert and one for each attempt's work, linked
 * across processes through the job's metadata, where the insert leaves the W3C trace context
 * ({@code traceparent}, and {@code tracestate} when there is one). Register it on a client as
 * both middlewares:
 *
 * <pre>{@code
 * RunnelTracing tracing = RunnelTracing.create(openTelemetry);
 * Runnel.builder()
 *         .driver(driver)
 *         .insertMiddleware(tracing)
 *         .workMiddleware(tracing)
 *         ...
 * }</pre>
 *
 * <p>The spans follow OpenTelemetry's messaging conventions, a job being a message and its
 * queue the destination:
 * <ul>
 *   <li>{@code insert {queue}} (PRODUCER, operation type {@code send}): an insert of one job,
 *       its context the one the job carries.
 *   <li>{@code insert} (CLIENT, {@code send}) for an insert of several jobs, with
 *       {@code messaging.batch.message_count}, and under it a {@code create {queue}} span
 *       (PRODUCER, {@code create}) per job, whose context that job carries.
 *   <li>{@code work {queue}} (CONSUMER, {@code process}): one attempt, the worker's call with its
 *       work middleware inside it, current while the worker runs (so the worker's own spans
 *       nest under it). Its parent is the context the job carries, so that one trace shows the
 *       request that inserted the job and every attempt at it, in whichever process; it also
 *       links to it, as the conventions ask. A job inserted without a trace context starts a
 *       trace of its own.
 * </ul>
 * Attributes: {@code messaging.system} ({@code runnel}), {@code messaging.operation.name}
 * ({@code insert}, {@code create} or {@code work}), {@code messaging.operation.type},
 * {@code messaging.destination.name} (the queue), {@code messaging.message.id} (the job's id),
 * {@code runnel.job.kind}, {@code runnel.job.attempt} (on work), {@code runnel.job.duplicate}
 * (an insert that found its unique job already there), and {@code error.type} with an error
 * status when the worker threw (but for a snooze) or the insert failed.
 *
 * <p>The context travels by the propagator of the {@code OpenTelemetry} given, or by W3C trace
 * context when that one carries nothing (an SDK built without propagators). A job whose kind has
 * no worker, or whose args cannot be decoded, never reaches work middleware, so its failed
 * attempts have no span.
 */
public final class RunnelTracing implements InsertMiddleware, WorkMiddleware {
    /** The instrumentation scope of the spans: {@value}. */
    public static final String SCOPE = "dev.runnel.otel";

    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<Long> BATCH_COUNT = AttributeKey.longKey("messaging.batch.message_count");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    /** The job's kind. */
    public static final AttributeKey<String> KIND = AttributeKey.stringKey("runnel.job.kind");
    /** The attempt worked, 1 on the first. */
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("runnel.job.attempt");
    /** Set on an insert whose unique job existed already: nothing was written, and its id is the existing job's. */
    public static final AttributeKey<Boolean> DUPLICATE = AttributeKey.booleanKey("runnel.job.duplicate");

    private static final String SYSTEM_NAME = "runnel";

    private static final TextMapSetter<Map<String, Object>> SETTER = (metadata, key, value) -> {
        if (metadata != null) {
            metadata.put(key, value);
        }
    };

    private static final TextMapGetter<Map<String, Object>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, Object> metadata) {
            return metadata.keySet();
        }

        @Override
        public String get(Map<String, Object> metadata, String key) {
            return metadata != null && metadata.get(key) instanceof String value ? value : null;
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    private RunnelTracing(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** Tracing with {@code openTelemetry}'s tracer provider and propagators. */
    public static RunnelTracing create(OpenTelemetry openTelemetry) {
        if (openTelemetry == null) {
            throw new IllegalArgumentException("openTelemetry must not be null");
        }
        TextMapPropagator propagator = openTelemetry.getPropagators().getTextMapPropagator();
        if (propagator.fields().isEmpty()) {
            // Nothing would cross to the worker: a trace would stop at the insert.
            propagator = W3CTraceContextPropagator.getInstance();
        }
        return new RunnelTracing(openTelemetry.getTracer(SCOPE), propagator);
    }

    // ---- insert ----

    @Override
    public void insert(List<InsertingJob> jobs, InsertMiddleware.Next next) {
        Context parent = Context.current();
        if (jobs.size() == 1) {
            insertOne(parent, jobs.getFirst(), next);
        } else {
            insertMany(parent, jobs, next);
        }
    }

    private void insertOne(Context parent, InsertingJob job, InsertMiddleware.Next next) {
        Span span = producer(parent, "insert", "send", job).startSpan();
        propagator.inject(parent.with(span), job.metadata(), SETTER);
        try (Scope ignored = span.makeCurrent()) {
            InsertResult result = next.proceed().getFirst();
            written(span, "insert", job, result);
        } catch (RuntimeException | Error e) {
            failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    private void insertMany(Context parent, List<InsertingJob> jobs, InsertMiddleware.Next next) {
        Span send = tracer.spanBuilder("insert").setParent(parent).setSpanKind(SpanKind.CLIENT)
                .setAttribute(SYSTEM, SYSTEM_NAME).setAttribute(OPERATION_NAME, "insert")
                .setAttribute(OPERATION_TYPE, "send").setAttribute(BATCH_COUNT, (long) jobs.size()).startSpan();
        Context sending = parent.with(send);
        Span[] creates = new Span[jobs.size()];
        for (int i = 0; i < creates.length; i++) {
            creates[i] = producer(sending, "create", "create", jobs.get(i)).startSpan();
            propagator.inject(sending.with(creates[i]), jobs.get(i).metadata(), SETTER);
        }
        try (Scope ignored = send.makeCurrent()) {
            List<InsertResult> results = next.proceed();
            String queue = jobs.getFirst().queue();
            for (int i = 0; i < creates.length; i++) {
                written(creates[i], "create", jobs.get(i), results.get(i));
                queue = queue != null && queue.equals(jobs.get(i).queue()) ? queue : null;
            }
            if (queue != null) {
                send.setAttribute(DESTINATION, queue);
                send.updateName("insert " + queue);
            }
        } catch (RuntimeException | Error e) {
            failed(send, e);
            for (Span create : creates) {
                failed(create, e);
            }
            throw e;
        } finally {
            for (Span create : creates) {
                create.end();
            }
            send.end();
        }
    }

    private SpanBuilder producer(Context parent, String operation, String type, InsertingJob job) {
        return tracer.spanBuilder(operation + " " + job.queue()).setParent(parent).setSpanKind(SpanKind.PRODUCER)
                .setAttribute(SYSTEM, SYSTEM_NAME).setAttribute(OPERATION_NAME, operation)
                .setAttribute(OPERATION_TYPE, type).setAttribute(KIND, job.kind());
    }

    /**
     * Completes a producer span once its job is written: an inner middleware may have moved the
     * job to another queue, so the destination is read now.
     */
    private static void written(Span span, String operation, InsertingJob job, InsertResult result) {
        span.updateName(operation + " " + job.queue());
        span.setAttribute(DESTINATION, job.queue());
        span.setAttribute(MESSAGE_ID, Long.toString(result.id()));
        if (result.duplicate()) {
            span.setAttribute(DUPLICATE, true);
        }
    }

    // ---- work ----

    @Override
    public void work(Job<?> job, WorkMiddleware.Next next) throws Exception {
        Context inserted = propagator.extract(Context.root(), job.metadata(), GETTER);
        SpanContext producer = Span.fromContext(inserted).getSpanContext();
        boolean linked = producer.isValid();
        SpanBuilder builder = tracer.spanBuilder("work " + job.queue()).setSpanKind(SpanKind.CONSUMER)
                .setParent(linked ? inserted : Context.current())
                .setAttribute(SYSTEM, SYSTEM_NAME).setAttribute(OPERATION_NAME, "work")
                .setAttribute(OPERATION_TYPE, "process").setAttribute(DESTINATION, job.queue())
                .setAttribute(MESSAGE_ID, Long.toString(job.id())).setAttribute(KIND, job.kind())
                .setAttribute(ATTEMPT, (long) job.attempt());
        if (linked) {
            builder.addLink(producer);
        }
        Span span = builder.startSpan();
        try (Scope ignored = span.makeCurrent()) {
            next.proceed();
        } catch (JobSnooze snooze) {
            throw snooze; // asked for by the worker: not an error
        } catch (Exception | Error e) {
            failed(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    private static void failed(Span span, Throwable e) {
        span.recordException(e);
        span.setAttribute(ERROR_TYPE, e.getClass().getName());
        String message = e.getMessage();
        span.setStatus(StatusCode.ERROR, message != null ? message : e.getClass().getName());
    }
}
