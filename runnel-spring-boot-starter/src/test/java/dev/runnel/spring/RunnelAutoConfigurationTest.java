package dev.runnel.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.ClientRow;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The client configured from runnel.* properties on a SQLite file: workers, lifecycle, bad input. */
class RunnelAutoConfigurationTest {
    @TempDir Path dir;

    @BeforeEach
    void reset() {
        TestJobs.WORKED.clear();
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RunnelAutoConfiguration.class))
                .withPropertyValues("runnel.database-url=sqlite://" + dir.resolve("jobs.db"), "runnel.auto-migrate=true",
                        "runnel.fetch-poll-interval=100ms");
    }

    @Test
    void workerBeansAreRegisteredByTheirArgsTypeAndWorkTheirJobs() {
        runner().withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.queues.default.max-workers=4", "runnel.queues.other.max-workers=1")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    Runnel runnel = ctx.getBean(Runnel.class);
                    runnel.insert(new TestJobs.Ping("a"));
                    runnel.insert(new TestJobs.Pong("b"));
                    Await.until("both worked", () -> TestJobs.WORKED.containsAll(List.of("ping a", "pong b")));
                    assertThat(ctx.getBean(RunnelLifecycle.class).isRunning()).isTrue();
                });
    }

    @Test
    void theClientStopsGracefullyWithTheContextLettingRunningJobsFinish() {
        long[] id = new long[1];
        runner().withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.queues.default.max-workers=2", "runnel.stop-timeout=5s")
                .run(ctx -> {
                    Runnel runnel = ctx.getBean(Runnel.class);
                    id[0] = runnel.insert(new TestJobs.Slow(700)).id();
                    Await.until("the job runs", () -> runnel.jobGet(id[0]).orElseThrow().state() == JobState.RUNNING);
                    long start = System.nanoTime();
                    ctx.close();
                    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
                });
        assertThat(TestJobs.WORKED).containsExactly("slow 700");
        try (SqliteDriver driver = SqliteDriver.open(dir.resolve("jobs.db"))) {
            assertThat(driver.jobGet(id[0]).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
            List<ClientRow> clients = driver.clientList();
            assertThat(clients).hasSize(1);
            assertThat(clients.getFirst().stoppedAt()).isPresent();
        }
    }

    @Test
    void aClientWithoutQueuesOnlyInsertsAndIsNotStarted() {
        runner().run(ctx -> {
            Runnel runnel = ctx.getBean(Runnel.class);
            long id = runnel.insert(new TestJobs.Ping("kept")).id();
            assertThat(runnel.clients()).isEmpty();
            assertThat(runnel.jobGet(id).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
        });
    }

    @Test
    void periodicJobsComeFromProperties() {
        runner().withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.queues.default.max-workers=2", "runnel.scheduler-interval=100ms",
                        "runnel.periodic.tick.every=1s", "runnel.periodic.tick.kind=ping",
                        "runnel.periodic.tick.args={\"text\":\"tick\"}", "runnel.periodic.tick.run-on-start=true",
                        "runnel.periodic.tick.priority=2")
                .run(ctx -> {
                    Runnel runnel = ctx.getBean(Runnel.class);
                    Await.until("a tick worked", () -> TestJobs.WORKED.contains("ping tick"));
                    assertThat(runnel.periodic().list()).singleElement().satisfies(row -> {
                        assertThat(row.name()).isEqualTo("tick");
                        assertThat(row.kind()).isEqualTo("ping");
                    });
                    JobRow job = runnel.jobList(JobQuery.all()).getFirst();
                    assertThat(job.priority()).isEqualTo(2);
                });
    }

    @Test
    void settingsReachTheClient() {
        runner().withPropertyValues("runnel.client-id=web-1", "runnel.retention.forever=completed,discarded")
                .run(ctx -> assertThat(ctx.getBean(Runnel.class).id()).isEqualTo("web-1"));
    }

    // ---- bad input fails the start, naming the property ----

    @Test
    void aMisspeltPropertyFailsTheStartWithItsName() {
        runner().withPropertyValues("runnel.queus.default.max-workers=3").run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("runnel.queus.default.max-workers");
        });
        runner().withPropertyValues("runnel.queues.default.max-wrokers=3").run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("runnel.queues.default.max-wrokers");
        });
        runner().withPropertyValues("runnel.tracing.enable=false").run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("runnel.tracing.enable");
        });
    }

    @Test
    void queueLimitsComeFromProperties() {
        runner().withUserConfiguration(TestJobs.Workers.class)
                .withPropertyValues("runnel.queues.default.max-workers=4", "runnel.queues.default.global-limit=3",
                        "runnel.queues.default.rate-limit-jobs=10", "runnel.queues.default.rate-limit-period=1m",
                        "runnel.queues.default.key-limit=2", "runnel.queues.default.key-field=args.text")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    dev.runnel.QueueRow queue = ctx.getBean(Runnel.class).queues().get("default").orElseThrow();
                    assertThat(queue.globalLimit()).hasValue(3);
                    assertThat(queue.rateLimit()).contains(new dev.runnel.RateLimit(10, java.time.Duration.ofMinutes(1)));
                    assertThat(queue.keyLimit()).contains(dev.runnel.KeyLimit.byArgs("text", 2));
                });
        runner().withPropertyValues("runnel.queues.default.max-workers=4", "runnel.queues.default.key-limit=2").run(ctx ->
                assertThat(ctx.getStartupFailure()).hasStackTraceContaining("key-limit and runnel.queues.default.key-field go together"));
        runner().withPropertyValues("runnel.queues.default.max-workers=4", "runnel.queues.default.key-limit=2",
                "runnel.queues.default.key-field=tenant").run(ctx ->
                assertThat(ctx.getStartupFailure()).hasStackTraceContaining("runnel.queues.default.key-limit: key-field must be"));
    }

    /** Records, for each Ping, the thread it ran on: its name, whether virtual, and its nice value. */
    @Configuration(proxyBeanMethods = false)
    static class ThreadWorkers {
        @Bean Worker<TestJobs.Ping> pingWorker() {
            return job -> {
                Thread t = Thread.currentThread();
                String nice = "-";
                if (!t.isVirtual()) {
                    String tid = java.nio.file.Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
                    String stat = java.nio.file.Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
                    nice = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3];
                }
                TestJobs.WORKED.add(job.queue() + " " + (t.isVirtual() ? "virtual" : t.getName()) + " nice " + nice);
            };
        }
    }

    @Test
    void queuesRunOnTheExecutorTheirPropertiesNameAndEmbeddedLowersTheRest() {
        runner().withUserConfiguration(ThreadWorkers.class)
                .withPropertyValues("runnel.embedded=true", "runnel.queues.default.max-workers=2",
                        "runnel.queues.cpu.max-workers=2", "runnel.queues.cpu.executor=platform",
                        "runnel.queues.cpu.nice=7", "runnel.queues.io.max-workers=2", "runnel.queues.io.executor=virtual")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    Runnel runnel = ctx.getBean(Runnel.class);
                    for (String queue : List.of("default", "cpu", "io")) {
                        runnel.insert(new TestJobs.Ping(queue), dev.runnel.InsertOptions.builder().queue(queue).build());
                    }
                    Await.until("all three worked", () -> TestJobs.WORKED.size() == 3);
                    assertThat(TestJobs.WORKED).containsExactlyInAnyOrder(
                            "default runnel-default-1 nice " + dev.runnel.QueueExecutor.EMBEDDED_NICE,
                            "cpu runnel-cpu-1 nice 7", "io virtual nice -");
                });
        runner().withPropertyValues("runnel.queues.default.nice=5").run(ctx ->
                assertThat(ctx.getStartupFailure())
                        .hasStackTraceContaining("runnel.queues.default.nice needs runnel.queues.default.executor=platform"));
        runner().withPropertyValues("runnel.queues.default.executor=platform", "runnel.queues.default.nice=20").run(ctx ->
                assertThat(ctx.getStartupFailure()).hasStackTraceContaining("runnel.queues.default: nice must be between 0"));
    }

    @Test
    void aValueRunnelRefusesFailsTheStartWithThePropertysName() {
        runner().withPropertyValues("runnel.queues.default.max-workers=0").run(ctx ->
                assertThat(ctx.getStartupFailure())
                        .hasStackTraceContaining("runnel.queues.default: maxWorkers of queue default must be between 1"));
        runner().withPropertyValues("runnel.heartbeat-interval=10ms").run(ctx ->
                assertThat(ctx.getStartupFailure()).hasStackTraceContaining("runnel.heartbeat-interval: "));
        runner().withPropertyValues("runnel.retention.forever=running").run(ctx ->
                assertThat(ctx.getStartupFailure())
                        .hasStackTraceContaining("runnel.retention.forever: retention applies to completed"));
        runner().withPropertyValues("runnel.periodic.p.kind=ping").run(ctx ->
                assertThat(ctx.getStartupFailure())
                        .hasStackTraceContaining("runnel.periodic.p: give exactly one of cron and every"));
        runner().withPropertyValues("runnel.periodic.p.cron=61 * * * *", "runnel.periodic.p.kind=ping").run(ctx ->
                assertThat(ctx.getStartupFailure()).hasStackTraceContaining("runnel.periodic.p: ")
                        .hasStackTraceContaining("61 * * * *"));
        runner().withPropertyValues("runnel.queues.default.delivery=twice").run(ctx ->
                assertThat(ctx.getStartupFailure()).hasStackTraceContaining("runnel.queues.default.delivery"));
    }

    @Test
    void workersWithoutAQueueFailTheStartSayingWhichPropertyToSet() {
        runner().withUserConfiguration(TestJobs.Workers.class).run(ctx ->
                assertThat(ctx.getStartupFailure()).rootCause()
                        .hasMessageContaining("set runnel.queues.default.max-workers=100"));
    }

    @Test
    void aStopTimeoutTheShutdownPhaseCannotHoldFailsTheStart() {
        runner().withPropertyValues("runnel.stop-timeout=20s").run(ctx ->
                assertThat(ctx.getStartupFailure()).rootCause()
                        .hasMessageContaining("runnel.stop-timeout (PT20S)")
                        .hasMessageContaining("spring.lifecycle.timeout-per-shutdown-phase (PT30S)"));
        runner().withPropertyValues("runnel.stop-timeout=20s", "spring.lifecycle.timeout-per-shutdown-phase=1m")
                .run(ctx -> assertThat(ctx).hasNotFailed());
    }

    @Test
    void withoutADatabaseTheStartSaysWhatToSet() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RunnelAutoConfiguration.class))
                .run(ctx -> assertThat(ctx.getStartupFailure()).rootCause()
                        .hasMessageContaining("set runnel.database-url"));
    }

    @Test
    void aWorkerWhoseArgsTypeCannotBeToldFailsTheStartNamingTheBean() {
        runner().withUserConfiguration(RawWorker.class).withPropertyValues("runnel.queues.default.max-workers=1")
                .run(ctx -> assertThat(ctx.getStartupFailure()).rootCause()
                        .hasMessageContaining("worker bean 'rawWorker'")
                        .hasMessageContaining("Worker<YourArgs>"));
    }

    @Test
    void disabledConfiguresNothing() {
        runner().withPropertyValues("runnel.enabled=false").run(ctx -> assertThat(ctx).doesNotHaveBean(Runnel.class));
    }

    @Test
    void theConfigurationMetadataDescribesTheProperties() throws Exception {
        String metadata = new String(getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")
                .readAllBytes());
        assertThat(metadata).contains("\"runnel.database-url\"", "\"runnel.queues\"", "\"runnel.stop-timeout\"",
                "\"runnel.health.stuck-after\"", "dev.runnel.spring.RunnelProperties$Queue",
                "\"runnel.metrics.enabled\"", "\"runnel.tracing.enabled\"");
    }

    @Configuration(proxyBeanMethods = false)
    static class RawWorker {
        @SuppressWarnings("rawtypes")
        @Bean Worker rawWorker() {
            return job -> { };
        }
    }
}
