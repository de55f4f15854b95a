package dev.runnel.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.spring.RunnelHealthIndicator;
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
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Boots the shop on a temporary SQLite file and on Postgres (a schema of its own): an order whose
 * payment is refused rolls back with its receipt job, which never runs; a placed order's receipt
 * is sent; the client reports healthy, and stops with the application.
 */
class ShopApplicationTest {
    static final URI POSTGRES = URI.create(System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test").replaceFirst("^postgresql:", "postgres:"));

    @TempDir Path dir;

    @Test
    void sqlite() {
        try (ConfigurableApplicationContext app = SpringApplication.run(ShopApplication.class,
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
        try (ConfigurableApplicationContext app = SpringApplication.run(ShopApplication.class,
                "--spring.datasource.url=" + jdbcUrl + "?currentSchema=" + schema,
                "--spring.datasource.username=" + user[0], "--spring.datasource.password=" + password,
                "--runnel.schema=" + schema)) {
            assertThat(app.getBean(Runnel.class).driver().name()).isEqualTo("postgres");
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
        // TODO(merger, with runnel-micrometer and runnel-otel): assert the Micrometer counters and an
        // OpenTelemetry span for the worked job.
    }
}
