package dev.runnel.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runnel on the application's DataSource, SQLite and Postgres: a job inserted through
 * {@link RunnelTemplate} in a Spring transaction commits and rolls back with the application's
 * own writes, and a rolled-back job never runs.
 */
class RunnelTransactionTest {
    @TempDir Path dir;
    @RegisterExtension final TestPostgres postgres = new TestPostgres();

    @BeforeEach
    void reset() {
        TestJobs.WORKED.clear();
    }

    private static ApplicationContextRunner runner(String... properties) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
                        RunnelAutoConfiguration.class))
                .withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.auto-migrate=true", "runnel.queues.default.max-workers=4",
                        "runnel.fetch-poll-interval=100ms")
                .withPropertyValues(properties);
    }

    @Test
    void sqlite() {
        runner("spring.datasource.url=jdbc:sqlite:" + dir.resolve("app.db")).run(ctx -> {
            assertThat(ctx.getBean(Runnel.class).driverName()).isEqualTo("sqlite");
            new JdbcTemplate(ctx.getBean(javax.sql.DataSource.class))
                    .execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, email TEXT)");
            aRolledBackJobNeverRunsAndACommittedOneDoes(ctx, "orders");
        });
    }

    @Test
    void postgres() throws Exception {
        String schema = postgres.createSchema();
        runner(TestPostgres.dataSource(TestPostgres.host(), TestPostgres.port()))
                .withPropertyValues("runnel.schema=" + schema).run(ctx -> {
                    assertThat(ctx.getBean(Runnel.class).driverName()).isEqualTo("postgres");
                    new JdbcTemplate(ctx.getBean(javax.sql.DataSource.class))
                            .execute("CREATE TABLE " + schema + ".orders (id bigint PRIMARY KEY, email text)");
                    aRolledBackJobNeverRunsAndACommittedOneDoes(ctx, schema + ".orders");
                });
    }

    private static void aRolledBackJobNeverRunsAndACommittedOneDoes(AssertableApplicationContext ctx, String orders) {
        assertThat(ctx).hasNotFailed();
        Runnel runnel = ctx.getBean(Runnel.class);
        RunnelTemplate template = ctx.getBean(RunnelTemplate.class);
        TransactionTemplate tx = ctx.getBean(TransactionTemplate.class);
        JdbcTemplate jdbc = new JdbcTemplate(ctx.getBean(javax.sql.DataSource.class));

        assertThatThrownBy(() -> tx.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO " + orders + " (id, email) VALUES (1, 'a@example.com')");
            assertThat(template.inTransaction()).isTrue();
            long id = template.insert(new TestJobs.Ping("rolled back")).id();
            // Inside the transaction the job is there, on its connection...
            assertThat(jdbc.queryForObject("SELECT count(*) FROM " + orders, Long.class)).isEqualTo(1);
            assertThat(id).isPositive();
            throw new IllegalStateException("payment refused");
        })).hasMessage("payment refused");

        tx.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO " + orders + " (id, email) VALUES (2, 'b@example.com')");
            template.insert(new TestJobs.Ping("committed"));
        });
        assertThat(template.inTransaction()).isFalse();
        template.insert(new TestJobs.Ping("outside"));

        Await.until("the committed jobs are worked",
                () -> TestJobs.WORKED.containsAll(List.of("ping committed", "ping outside")));
        // The rolled-back job was never written: no row, and never worked, while later ones were.
        assertThat(jdbc.queryForList("SELECT id FROM " + orders, Long.class)).containsExactly(2L);
        List<JobRow> jobs = runnel.jobList(JobQuery.all());
        assertThat(jobs).extracting(JobRow::args).noneMatch(args -> args.contains("rolled back")).hasSize(2);
        assertThat(TestJobs.WORKED).doesNotContain("ping rolled back");
    }
}
