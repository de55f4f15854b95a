package dev.runnel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.TcpProxy;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The health indicator and info contributor, on real databases brought into the states they report. */
class RunnelActuatorTest {
    @TempDir Path dir;
    @RegisterExtension final TestPostgres postgres = new TestPostgres();

    @BeforeEach
    void reset() {
        TestJobs.WORKED.clear();
    }

    @AfterEach
    void openGate() {
        TestJobs.gate.countDown();
    }

    private ApplicationContextRunner sqlite() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RunnelAutoConfiguration.class))
                .withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.database-url=sqlite://" + dir.resolve("jobs.db"), "runnel.auto-migrate=true",
                        "runnel.fetch-poll-interval=100ms", "runnel.queues.default.max-workers=1");
    }

    @Test
    void upWithTheLeaderAndEachQueuesWait() {
        sqlite().run(ctx -> {
            Runnel runnel = ctx.getBean(Runnel.class);
            RunnelHealthIndicator indicator = ctx.getBean(RunnelHealthIndicator.class);
            Await.until("this client leads", runnel::isLeader);
            Health health = indicator.health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("driver", "sqlite").containsEntry("client", runnel.id())
                    .containsEntry("leader", runnel.id());
            assertThat(health.getDetails().get("queues").toString()).contains("default", "oldestAvailableWait=none");
        });
    }

    @Test
    void downWhileAQueueIsStuckAndUpAgainOnceItMoves() {
        TestJobs.gate = new CountDownLatch(1);
        sqlite().withPropertyValues("runnel.health.stuck-after=1s").run(ctx -> {
            Runnel runnel = ctx.getBean(Runnel.class);
            RunnelHealthIndicator indicator = ctx.getBean(RunnelHealthIndicator.class);
            // One slot, held by a job that waits at the gate: the next job waits behind it.
            runnel.insert(new TestJobs.Gated("first"));
            runnel.insert(new TestJobs.Ping("behind"));
            Await.until("the queue is reported stuck", () -> indicator.health(true).getStatus().equals(Status.DOWN));
            assertThat(indicator.health(true).getDetails().get("problems").toString())
                    .contains("queue default is stuck", "runnel.health.stuck-after (PT1S)");

            // Paused on purpose, it is not stuck.
            runnel.queues().pause("default");
            assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
            runnel.queues().resume("default");

            TestJobs.gate.countDown();
            Await.until("the queue moved", () -> TestJobs.WORKED.contains("ping behind"));
            assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void downWhenTheDatabaseCannotBeReached() throws Exception {
        String schema = postgres.createSchema();
        try (TcpProxy proxy = TcpProxy.start(TestPostgres.host(), TestPostgres.port())) {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                            RunnelAutoConfiguration.class))
                    .withPropertyValues(TestPostgres.dataSource("127.0.0.1", proxy.port()))
                    .withPropertyValues("spring.datasource.hikari.connection-timeout=1000", "runnel.schema=" + schema,
                            "runnel.auto-migrate=true")
                    .run(ctx -> {
                        RunnelHealthIndicator indicator = ctx.getBean(RunnelHealthIndicator.class);
                        assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
                        proxy.refuseNew(true);
                        proxy.dropAll();
                        Health down = indicator.health(true);
                        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                        assertThat(down.getDetails()).containsKey("error");
                        proxy.refuseNew(false);
                        Await.until("up again", () -> indicator.health(true).getStatus().equals(Status.UP));
                    });
        }
    }

    @Test
    void infoNamesTheDriverQueuesAndWorkers() {
        sqlite().withPropertyValues("runnel.queues.mail.max-workers=3", "runnel.queues.mail.delivery=at-most-once")
                .run(ctx -> {
                    Info.Builder builder = new Info.Builder();
                    ctx.getBean(RunnelInfoContributor.class).contribute(builder);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> info = (Map<String, Object>) builder.build().getDetails().get("runnel");
                    assertThat(info).containsEntry("driver", "sqlite");
                    assertThat(info.get("queues").toString()).contains("mail", "maxWorkers=3", "at-most-once");
                    assertThat(info.get("workers").toString()).contains(TestJobs.Ping.class.getName());
                });
    }
}
