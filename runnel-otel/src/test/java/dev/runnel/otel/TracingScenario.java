package dev.runnel.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobArgs;
import dev.runnel.JobDiscard;
import dev.runnel.JobEvent;
import dev.runnel.JobQuery;
import dev.runnel.JobSnooze;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.EventRecorder;
import dev.runnel.testkit.conformance.DriverConformance;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The spans of inserts and work on a real database, and the trace context crossing from one
 * client to another through the job's metadata; a subclass per driver supplies the database.
 */
abstract class TracingScenario extends DriverConformance {
    private final EventRecorder events = new EventRecorder();
    /** The inserting process: its SDK propagates W3C trace context, as an autoconfigured one does. */
    private final InMemorySpanExporter insertSpans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk inserting = sdk(insertSpans, true);
    /** The working process: an SDK built without propagators, so tracing falls back to W3C. */
    private final InMemorySpanExporter workSpans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk working = sdk(workSpans, false);

    /** Another driver on this test's database, as another process would open it. */
    protected abstract Driver sameDatabase(Path dir);

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new UnsupportedOperationException("these tests insert on the client's own connections");
    }

    private static OpenTelemetrySdk sdk(InMemorySpanExporter exporter, boolean w3c) {
        SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build();
        return (w3c ? OpenTelemetrySdk.builder().setPropagators(ContextPropagators.create(
                W3CTraceContextPropagator.getInstance())) : OpenTelemetrySdk.builder())
                .setTracerProvider(provider).build();
    }

    @AfterEach
    void closeSdks() {
        inserting.close();
        working.close();
    }

    /** A client of the working process, on its own driver: closed by the test. */
    private RunnelBuilder workingClient(Path dir) {
        RunnelTracing tracing = RunnelTracing.create(working);
        return client().driver(sameDatabase(dir)).queue("default", 4).listener(events).insertMiddleware(tracing)
                .workMiddleware(tracing);
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(s -> s.getName().equals(name)).reduce((a, b) -> {
            throw new AssertionError("more than one span named " + name + ": " + spans);
        }).orElseThrow(() -> new AssertionError("no span named " + name + " in " + spans));
    }

    private static List<SpanData> worked(List<SpanData> spans, long id) {
        return spans.stream().filter(s -> s.getKind() == SpanKind.CONSUMER
                && String.valueOf(id).equals(s.getAttributes().get(RunnelTracing.MESSAGE_ID))).toList();
    }

    @Test
    void theTraceCrossesFromAnInsertInOneClientToTheWorkInAnother() {
        Runnel inserter = Runnel.builder().driver(driver).clock(clock).insertMiddleware(RunnelTracing.create(inserting))
                .build();
        long id;
        Span request = inserting.getTracer("app").spanBuilder("POST /orders").setSpanKind(SpanKind.SERVER).startSpan();
        try (Scope ignored = request.makeCurrent()) {
            id = inserter.insert(new TestArgs("order-1", 1)).id();
        } finally {
            request.end();
        }
        SpanData insert = named(insertSpans.getFinishedSpanItems(), "insert default");
        assertThat(insert.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(insert.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
        assertThat(insert.getAttributes().asMap()).containsEntry(RunnelTracing.SYSTEM, "runnel")
                .containsEntry(RunnelTracing.OPERATION_TYPE, "send").containsEntry(RunnelTracing.DESTINATION, "default")
                .containsEntry(RunnelTracing.MESSAGE_ID, String.valueOf(id)).containsEntry(RunnelTracing.KIND, "test_job");
        assertThat(inserter.jobGet(id).orElseThrow().metadata()).contains("\"traceparent\":\"00-"
                + insert.getTraceId() + "-" + insert.getSpanId() + "-" + insert.getSpanContext().getTraceFlags().asHex() + "\"");

        try (Runnel worker = workingClient(dir).worker(TestArgs.class, job -> working.getTracer("app")
                .spanBuilder("charge card").startSpan().end()).build()) {
            worker.start();
            assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        }
        List<SpanData> spans = workSpans.getFinishedSpanItems();
        SpanData work = named(spans, "work default");
        assertThat(work.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(work.getTraceId()).isEqualTo(insert.getTraceId());
        assertThat(work.getParentSpanId()).isEqualTo(insert.getSpanId());
        assertThat(work.getLinks()).singleElement()
                .satisfies(link -> assertThat(link.getSpanContext().getSpanId()).isEqualTo(insert.getSpanId()));
        assertThat(work.getAttributes().asMap()).containsEntry(RunnelTracing.OPERATION_TYPE, "process")
                .containsEntry(RunnelTracing.OPERATION_NAME, "work").containsEntry(RunnelTracing.DESTINATION, "default")
                .containsEntry(RunnelTracing.MESSAGE_ID, String.valueOf(id)).containsEntry(RunnelTracing.KIND, "test_job")
                .containsEntry(RunnelTracing.ATTEMPT, 1L);
        assertThat(work.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(named(spans, "charge card").getParentSpanId()).as("the worker's own spans nest in its work")
                .isEqualTo(work.getSpanId());
    }

    @Test
    void failedAttemptsAreErrorsAndEachAttemptIsAChildOfTheInsert() {
        try (Runnel runnel = workingClient(dir).worker(TestArgs.class, job -> {
            switch (job.args().value()) {
                case 1 -> {
                    if (job.attempt() == 1) {
                        throw new IllegalStateException("card declined");
                    }
                }
                case 2 -> throw new JobDiscard("order cancelled");
                default -> throw new JobSnooze(Duration.ofDays(1)); // not due again within the test
            }
        }).build()) {
            runnel.start();
            long retried = runnel.insert(new TestArgs("retried", 1)).id();
            long discarded = runnel.insert(new TestArgs("discarded", 2)).id();
            long snoozed = runnel.insert(new TestArgs("snoozed", 3)).id();
            assertThat(events.await(retried).type()).isEqualTo(JobEvent.Type.FAILED);
            clock.advance(Duration.ofHours(2));
            assertThat(events.await(retried, 2).type()).isEqualTo(JobEvent.Type.COMPLETED);
            assertThat(events.await(discarded).type()).isEqualTo(JobEvent.Type.DISCARDED);
            assertThat(events.await(snoozed).type()).isEqualTo(JobEvent.Type.SNOOZED);

            List<SpanData> spans = workSpans.getFinishedSpanItems();
            SpanData insert = spans.stream().filter(s -> s.getKind() == SpanKind.PRODUCER
                    && String.valueOf(retried).equals(s.getAttributes().get(RunnelTracing.MESSAGE_ID))).findFirst()
                    .orElseThrow();
            List<SpanData> attempts = worked(spans, retried);
            assertThat(attempts).extracting(s -> s.getAttributes().get(RunnelTracing.ATTEMPT)).containsExactly(1L, 2L);
            assertThat(attempts).allSatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(insert.getSpanId()));
            SpanData first = attempts.getFirst();
            assertThat(first.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(first.getStatus().getDescription()).isEqualTo("card declined");
            assertThat(first.getAttributes().get(AttributeKey.stringKey("error.type")))
                    .isEqualTo(IllegalStateException.class.getName());
            assertThat(first.getEvents()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("exception"));
            assertThat(attempts.getLast().getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
            assertThat(worked(spans, discarded)).singleElement()
                    .satisfies(s -> assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR));
            assertThat(worked(spans, snoozed)).singleElement().as("a snooze is not an error")
                    .satisfies(s -> assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET));
        }
    }

    @Test
    void aBatchInsertHasOneSendSpanAndACreateSpanPerJobEachParentOfItsWork() {
        try (Runnel runnel = workingClient(dir).worker(TestArgs.class, job -> {}).build()) {
            long[] ids = InsertResult.ids(runnel.insertMany(List.of(InsertRequest.of(new TestArgs("a", 1)),
                    InsertRequest.of(new TestArgs("b", 2)), InsertRequest.of(new TestArgs("c", 3)))));
            runnel.start();
            for (long id : ids) {
                events.await(id);
            }
            List<SpanData> spans = workSpans.getFinishedSpanItems();
            SpanData send = named(spans, "insert default");
            assertThat(send.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(send.getAttributes().get(RunnelTracing.BATCH_COUNT)).isEqualTo(3L);
            List<SpanData> creates = spans.stream().filter(s -> s.getName().equals("create default")).toList();
            assertThat(creates).hasSize(3).allSatisfy(c -> {
                assertThat(c.getKind()).isEqualTo(SpanKind.PRODUCER);
                assertThat(c.getParentSpanId()).isEqualTo(send.getSpanId());
            });
            for (long id : ids) {
                SpanData create = creates.stream()
                        .filter(c -> String.valueOf(id).equals(c.getAttributes().get(RunnelTracing.MESSAGE_ID)))
                        .findFirst().orElseThrow();
                assertThat(worked(spans, id)).singleElement()
                        .satisfies(w -> assertThat(w.getParentSpanId()).isEqualTo(create.getSpanId()));
            }
        }
    }

    /** Args no mapper can encode. */
    record Opaque(Object handle) implements JobArgs {
        @Override
        public String kind() {
            return "opaque";
        }
    }

    @Test
    void aFailedInsertIsAnErrorSpanWithNothingWritten() {
        Runnel inserter = Runnel.builder().driver(driver).clock(clock).insertMiddleware(RunnelTracing.create(inserting))
                .build();
        assertThatThrownBy(() -> inserter.insert(new Opaque(new Object()))).isInstanceOf(IllegalArgumentException.class);
        SpanData insert = named(insertSpans.getFinishedSpanItems(), "insert default");
        assertThat(insert.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(insert.getStatus().getDescription()).contains("at field 'handle'");
        assertThat(inserter.jobList(JobQuery.all())).isEmpty();
    }

    @Test
    void aJobInsertedWithoutTracingStartsATraceOfItsOwn() {
        long id = inserter().insert(new TestArgs("untraced", 1)).id();
        try (Runnel worker = workingClient(dir).worker(TestArgs.class, job -> {}).build()) {
            worker.start();
            events.await(id);
        }
        assertThat(worked(workSpans.getFinishedSpanItems(), id)).singleElement().satisfies(w -> {
            assertThat(w.getParentSpanContext().isValid()).isFalse();
            assertThat(w.getLinks()).isEmpty();
        });
    }
}
