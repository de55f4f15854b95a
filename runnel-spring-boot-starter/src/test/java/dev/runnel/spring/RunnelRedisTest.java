package dev.runnel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.LocalRedis;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The client configured from {@code runnel.database-url: redis://...}: it works its jobs on Redis. */
class RunnelRedisTest {
    @BeforeEach
    void reset() {
        TestJobs.WORKED.clear();
    }

    @Test
    void aRedisDatabaseUrlStartsAClientThatWorksItsJobs() {
        String url = LocalRedis.shared().freshUrl();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RunnelAutoConfiguration.class))
                .withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.database-url=" + url, "runnel.auto-migrate=true",
                        "runnel.fetch-poll-interval=100ms", "runnel.queues.default.max-workers=2")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    Runnel runnel = ctx.getBean(Runnel.class);
                    assertThat(runnel.driverName()).isEqualTo("redis");
                    long id = runnel.insert(new TestJobs.Ping("on redis")).id();
                    Await.until("the job worked", () -> TestJobs.WORKED.equals(List.of("ping on redis")));
                    Await.until("the job stored completed",
                            () -> runnel.jobGet(id).orElseThrow().state() == JobState.COMPLETED);
                    assertThat(ctx.getBean(RunnelLifecycle.class).isRunning()).isTrue();
                });
    }
}
