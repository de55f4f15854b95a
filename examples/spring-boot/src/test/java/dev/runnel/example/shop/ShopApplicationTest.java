package dev.runnel.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.spring.RunnelHealthIndicator;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Boots the shop on a temporary SQLite file and on Postgres (a schema of its own): an order whose
 * payment is refused rolls back with its receipt job, which never runs; a placed order's receipt
 * is sent, counted in Runnel's Micrometer meters and traced by its insert and work spans; the
 * client reports healthy, and stops with the application.
 */
class ShopApplicationTest {
    static final URI POSTGRES = URI.create(System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test").replaceFirst("^postgresql:", "postgres:"));
    static final AttributeKey<String> JOB_ID = AttributeKey.stringKey("messaging.message.id");

    @TempDir Path dir;

    /**
     * The application's OpenTelemetry, as an application would define it with its exporter; here
     * the exporter keeps the spans in memory. Handed to the application as a source of its own,
     * so that it is no component the shop's scan would find.
     */
    static class Tracing {
        @Bean InMemorySpanExporter spanExporter() {
            return InMemorySpanExporter.create();
        }

        @Bean(destroyMethod = "close") OpenTelemetrySdk openTelemetry(InMemorySpanExporter exporter) {
            return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        }
    }

    private static ConfigurableApplicationContext run(String... args) {
        return SpringApplication.run(new Class<?>[] {ShopApplication.class, Tracing.class}, args);
    }

    @Test
    void sqlite() {
        try (ConfigurableApplicationContext app = run(
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("shop.db"), "--runnel.fetch-poll-interval=100ms")) {
            aRefusedOrderNeverSendsItsReceipt(app);
        }
    }

    @Test
    void postgres() throws Exception {
        String schema = "t_shop_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        String jdbcUrl = "jdbc:postgresql://" + POSTGRES.getHost() + ":" + (POSTGRES.getPort() < 0 ? 5432
                : POSTGRES.getPort()) + POSTGRES.getPath();
        String[] user = (POSTGRES.getUserInfo() == null ? "postgres" : POSTGRES.getUserInfo()).split(":", 2);
        String password = user.length > 1 ? user[1] : "";
        try (Connection c = DriverManager.getConnection(jdbcUrl, user[0], password); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        }
        try (ConfigurableApplicationContext app = run(
                "--spring.datasource.url=" + jdbcUrl + "?currentSchema=" + schema,
                "--spring.datasource.username=" + user[0], "--spring.datasource.password=" + password,
                "--runnel.schema=" + schema)) {
            assertThat(app.getBean(Runnel.class).driverName()).isEqualTo("postgres");
            aRefusedOrderNeverSendsItsReceipt(app);
        } finally {
            try (Connection c = DriverManager.getConnection(jdbcUrl, user[0], password);
                    Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    private static void aRefusedOrderNeverSendsItsReceipt(ConfigurableApplicationContext app) {
        OrderService orders = app.getBean(OrderService.class);
        SendReceiptWorker receipts = app.getBean(SendReceiptWorker.class);
        Runnel runnel = app.getBean(Runnel.class);

        assertThatThrownBy(() -> orders.placeOrder(1, "refused@example.com", true))
                .hasMessage("payment refused for order 1");
        orders.placeOrder(2, "paid@example.com", false);

        await().atMost(Duration.ofSeconds(20)).until(() -> receipts.sent().contains(2L));
        assertThat(receipts.sent()).containsExactly(2L);
        assertThat(app.getBean(JdbcTemplate.class).queryForList("SELECT id FROM orders", Long.class))
                .containsExactly(2L);
        List<JobRow> jobs = runnel.jobList(JobQuery.all());
        assertThat(jobs).singleElement().satisfies(job -> {
            assertThat(job.args()).contains("paid@example.com");
            await().until(() -> runnel.jobGet(job.id()).orElseThrow().state() == JobState.COMPLETED);
        });
        assertThat(app.getBean(RunnelHealthIndicator.class).health(true).getStatus()).isEqualTo(Status.UP);
        aSentReceiptIsCountedAndTraced(app, jobs.getFirst().id());
    }

    /** Runnel's meters on Actuator's registry, and its spans with the application's OpenTelemetry. */
    private static void aSentReceiptIsCountedAndTraced(ConfigurableApplicationContext app, long id) {
        MeterRegistry registry = app.getBean(MeterRegistry.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Counter sent = completedReceipts(registry);
            return sent != null && sent.count() == 1;
        });
        assertThat(registry.find("runnel.job.outcomes").counters()).as("the refused order's job never ran")
                .singleElement().isSameAs(completedReceipts(registry));
        assertThat(registry.find("runnel.job.run").tags("kind", "send_receipt", "outcome", "completed").timer())
                .isNotNull().satisfies(run -> assertThat(run.count()).isEqualTo(1));

        InMemorySpanExporter spans = app.getBean(InMemorySpanExporter.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> !traced(spans, SpanKind.CONSUMER, id).isEmpty());
        SpanData work = traced(spans, SpanKind.CONSUMER, id).getFirst();
        assertThat(work.getName()).isEqualTo("work default");
        // Its parent is the insert in placeOrder's transaction, which left its context in the job.
        assertThat(traced(spans, SpanKind.PRODUCER, id)).filteredOn(s -> s.getSpanId().equals(work.getParentSpanId()))
                .singleElement().satisfies(insert -> {
                    assertThat(insert.getName()).isEqualTo("insert default");
                    assertThat(insert.getTraceId()).isEqualTo(work.getTraceId());
                });
        assertThat(spans.getFinishedSpanItems()).filteredOn(s -> s.getKind() == SpanKind.PRODUCER)
                .as("both orders' inserts are traced, the rolled-back one too").hasSize(2);
        assertThat(spans.getFinishedSpanItems()).filteredOn(s -> s.getKind() == SpanKind.CONSUMER)
                .as("only the placed order's receipt was worked").hasSize(1);
    }

    private static Counter completedReceipts(MeterRegistry registry) {
        return registry.find("runnel.job.outcomes")
                .tags("queue", "default", "kind", "send_receipt", "outcome", "completed", "state", "completed")
                .counter();
    }

    private static List<SpanData> traced(InMemorySpanExporter spans, SpanKind kind, long id) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getKind() == kind && String.valueOf(id).equals(s.getAttributes().get(JOB_ID))).toList();
    }
}
