package dev.runnel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.WorkMiddleware;
import dev.runnel.micrometer.RunnelMetrics;
import dev.runnel.otel.RunnelTracing;
import dev.runnel.testkit.Await;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Metrics, tracing and JSON from the application's beans, on a SQLite file: a MeterRegistry bean
 * gets Runnel's meters, an OpenTelemetry bean its spans, a Jackson 2 ObjectMapper bean writes the
 * args; each is off with its property, and absent beans or classes leave the client as it was.
 */
class RunnelObservabilityTest {
    @TempDir Path dir;

    @BeforeEach
    void reset() {
        TestJobs.WORKED.clear();
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RunnelAutoConfiguration.class))
                .withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.database-url=sqlite://" + dir.resolve("jobs.db"), "runnel.auto-migrate=true",
                        "runnel.fetch-poll-interval=100ms", "runnel.queues.default.max-workers=2");
    }

    /** An SDK whose spans land in an in-memory exporter, as the application's OpenTelemetry bean. */
    @Configuration(proxyBeanMethods = false)
    static class Tracing {
        @Bean InMemorySpanExporter spanExporter() {
            return InMemorySpanExporter.create();
        }

        @Bean(destroyMethod = "close") OpenTelemetrySdk openTelemetry(InMemorySpanExporter exporter) {
            return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        }
    }

    /** The application's own work middleware, which records the span current around it. */
    @Configuration(proxyBeanMethods = false)
    static class SpanSeer {
        static final List<String> SEEN = new CopyOnWriteArrayList<>();

        @Bean WorkMiddleware spanSeer() {
            return (job, next) -> {
                SEEN.add(Span.current().getSpanContext().getSpanId());
                next.proceed();
            };
        }
    }

    private static Counter completed(MeterRegistry registry, String kind) {
        return registry.find(RunnelMetrics.OUTCOMES).tags("queue", "default", "kind", kind, "outcome", "completed",
                "state", "completed").counter();
    }

    private static SpanData span(InMemorySpanExporter exporter, SpanKind kind, String name) {
        return exporter.getFinishedSpanItems().stream().filter(s -> s.getKind() == kind && s.getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " span " + name + " in "
                        + exporter.getFinishedSpanItems()));
    }

    @Test
    void aMeterRegistryBeanGetsTheMetersOfWorkedJobs() {
        runner().withBean(SimpleMeterRegistry.class).run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(RunnelMetrics.class);
            MeterRegistry registry = ctx.getBean(MeterRegistry.class);
            Runnel runnel = ctx.getBean(Runnel.class);
            runnel.insert(new TestJobs.Ping("one"));
            runnel.insert(new TestJobs.Ping("two"));
            Await.until("both counted", () -> completed(registry, "ping") != null
                    && completed(registry, "ping").count() == 2);
            // The runtime listener's side: the claims of the queue were timed.
            assertThat(registry.find(RunnelMetrics.CLAIM).tag("queue", "default").timer()).isNotNull()
                    .satisfies(t -> assertThat(t.count()).isPositive());
        });
    }

    @Test
    void anOpenTelemetryBeanTracesTheInsertAndTheWorkOutermost() {
        SpanSeer.SEEN.clear();
        runner().withUserConfiguration(Tracing.class, SpanSeer.class).run(ctx -> {
            assertThat(ctx).hasNotFailed().hasSingleBean(RunnelTracing.class);
            InMemorySpanExporter exporter = ctx.getBean(InMemorySpanExporter.class);
            long id = ctx.getBean(Runnel.class).insert(new TestJobs.Ping("traced")).id();
            Await.until("the work span ended", () -> exporter.getFinishedSpanItems().stream()
                    .anyMatch(s -> s.getKind() == SpanKind.CONSUMER));
            SpanData insert = span(exporter, SpanKind.PRODUCER, "insert default");
            SpanData work = span(exporter, SpanKind.CONSUMER, "work default");
            assertThat(insert.getAttributes().get(AttributeKey.stringKey("messaging.message.id")))
                    .isEqualTo(String.valueOf(id));
            assertThat(work.getTraceId()).isEqualTo(insert.getTraceId());
            assertThat(work.getParentSpanId()).isEqualTo(insert.getSpanId());
            assertThat(SpanSeer.SEEN).as("the application's middleware runs inside the work span")
                    .containsExactly(work.getSpanId());
        });
    }

    @Test
    void thePropertiesTurnMetricsAndTracingOff() {
        runner().withBean(SimpleMeterRegistry.class).withUserConfiguration(Tracing.class)
                .withPropertyValues("runnel.metrics.enabled=false", "runnel.tracing.enabled=false").run(ctx -> {
                    assertThat(ctx).hasNotFailed().doesNotHaveBean(RunnelMetrics.class)
                            .doesNotHaveBean(RunnelTracing.class);
                    long id = workOne(ctx);
                    assertThat(ctx.getBean(MeterRegistry.class).find(RunnelMetrics.OUTCOMES).meters()).isEmpty();
                    assertThat(ctx.getBean(MeterRegistry.class).find(RunnelMetrics.CLAIM).meters()).isEmpty();
                    assertThat(ctx.getBean(InMemorySpanExporter.class).getFinishedSpanItems()).isEmpty();
                    assertThat(ctx.getBean(Runnel.class).jobGet(id).orElseThrow().metadata())
                            .doesNotContain("traceparent");
                });
    }

    @Test
    void withoutTheBeansTheClientIsAsBefore() {
        runner().run(ctx -> {
            assertThat(ctx).hasNotFailed().doesNotHaveBean(RunnelMetrics.class).doesNotHaveBean(RunnelTracing.class);
            workOne(ctx);
        });
    }

    @Test
    void withoutTheModulesOnTheClassPathTheBeansAreIgnored() {
        runner().withClassLoader(new FilteredClassLoader(RunnelMetrics.class, RunnelTracing.class))
                .withBean(SimpleMeterRegistry.class).withUserConfiguration(Tracing.class).run(ctx -> {
                    assertThat(ctx).hasNotFailed().doesNotHaveBean(RunnelMetrics.class)
                            .doesNotHaveBean(RunnelTracing.class);
                    workOne(ctx);
                    assertThat(ctx.getBean(InMemorySpanExporter.class).getFinishedSpanItems()).isEmpty();
                });
    }

    /** Inserts a job and waits until it was worked; its id. */
    private static long workOne(AssertableApplicationContext ctx) {
        long id = ctx.getBean(Runnel.class).insert(new TestJobs.Ping("plain")).id();
        Await.until("worked", () -> TestJobs.WORKED.contains("ping plain"));
        return id;
    }

    /** Args whose field name a naming strategy changes. */
    record Invoice(long invoiceId) implements JobArgs {
        @Override public String kind() { return "invoice"; }
    }

    @Test
    void aJackson2ObjectMapperBeanWritesTheArgs() {
        ObjectMapper snake = RunnelBuilder.defaultObjectMapper()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        runner().withBean(ObjectMapper.class, () -> snake).run(ctx -> {
            Runnel runnel = ctx.getBean(Runnel.class);
            long id = runnel.insert(new Invoice(7)).id();
            assertThat(runnel.jobGet(id).orElseThrow().args()).isEqualTo("{\"invoice_id\":7}");
        });
        runner().run(ctx -> {
            Runnel runnel = ctx.getBean(Runnel.class);
            long id = runnel.insert(new Invoice(7)).id();
            assertThat(runnel.jobGet(id).orElseThrow().args()).isEqualTo("{\"invoiceId\":7}");
        });
    }
}
