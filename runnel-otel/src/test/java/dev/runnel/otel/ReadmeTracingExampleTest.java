package dev.runnel.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.sqlite.SqliteDriver;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's guide's tracing example (docs/guide/observability.md), run; the test fails if the page's code drifts from it. */
class ReadmeTracingExampleTest {
    record Ping(String target) implements JobArgs {
        @Override public String kind() { return "ping"; }
    }

    // --- guide tracing example start ---
    static void tracingExample(Path file, OpenTelemetry openTelemetry) throws Exception {
        RunnelTracing tracing = RunnelTracing.create(openTelemetry);
        try (Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(file))
                .autoMigrate(true)
                .queue("default", 10)
                .worker(Ping.class, job -> {})
                .insertMiddleware(tracing) // a span per insert; its trace context goes into the job's metadata
                .workMiddleware(tracing)   // a span per attempt, in whichever process works it
                .build()) {
            runnel.start();
            long id = runnel.insert(new Ping("db")).id();
            while (runnel.jobGet(id).orElseThrow().state() != JobState.COMPLETED) {
                Thread.sleep(10);
            }
        }
    }
    // --- guide tracing example end ---

    @Test
    void tracingExampleRunsAndMatchesTheGuide(@TempDir Path dir) throws Exception {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        List<SpanData> finished;
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build()) {
            tracingExample(dir.resolve("jobs.db"), sdk);
            finished = spans.getFinishedSpanItems(); // closing the SDK empties the exporter
        }
        SpanData insert = finished.stream().filter(s -> s.getName().equals("insert default")).findFirst().orElseThrow();
        assertThat(finished).filteredOn(s -> s.getKind() == SpanKind.CONSUMER).singleElement()
                .satisfies(work -> assertThat(work.getParentSpanId()).isEqualTo(insert.getSpanId()));
        String start = "// --- guide tracing example start ---";
        String source = Files.readString(Path.of("src/test/java/dev/runnel/otel/ReadmeTracingExampleTest.java"));
        String example = source.substring(source.indexOf(start) + start.length(),
                source.indexOf("    // --- guide tracing example end ---"));
        assertThat(squash(Files.readString(Path.of("../docs/guide/observability.md")))).contains(squash(example));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
