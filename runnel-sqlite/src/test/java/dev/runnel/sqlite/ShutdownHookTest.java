package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client built with {@code stopOnShutdown(true)} in a JVM of its own, stopped the way Ctrl-C or
 * a deployment stops it (SIGTERM): its running job goes back to be run again, its attempt not
 * used up, instead of staying running until the rescuer notices.
 */
class ShutdownHookTest {
    record Slow(int n) implements JobArgs {
        @Override
        public String kind() {
            return "slow";
        }
    }

    /** The child: works one slow job, says RUNNING when it has started, and waits to be stopped. */
    public static void main(String[] args) throws Exception {
        Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(Path.of(args[0])))
                .clientId("child")
                .stopOnShutdown(true)
                .stopTimeout(Duration.ofSeconds(2))
                .queue("default", 1)
                .worker(Slow.class, job -> {
                    System.out.println("RUNNING " + job.id());
                    System.out.flush();
                    Thread.sleep(60_000);
                })
                .build();
        runnel.start();
        Thread.sleep(120_000); // the parent stops this JVM long before
        System.exit(3);
    }

    @Test
    void sigtermStopsTheClientGracefullyAndItsJobRunsAgainWithItsAttempt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("jobs.db");
        try (Runnel parent = Runnel.builder().driver(SqliteDriver.open(file)).autoMigrate(true).build()) {
            long id = parent.insert(new Slow(1)).id();
            String java = ProcessHandle.current().info().command().orElseThrow();
            Process child = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                    ShutdownHookTest.class.getName(), file.toString())).redirectErrorStream(true).start();
            try (BufferedReader out = child.inputReader(StandardCharsets.UTF_8)) {
                String line;
                while ((line = out.readLine()) != null && !line.startsWith("RUNNING")) {
                    // the child's log
                }
                assertThat(line).as("the child's job started").isEqualTo("RUNNING " + id);
                child.destroy(); // SIGTERM
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child exited").isTrue();
            } finally {
                child.destroyForcibly();
            }
            JobRow row = parent.jobGet(id).orElseThrow();
            assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
            assertThat(row.attempt()).isZero();
            assertThat(row.lastError().orElseThrow().message()).contains("client stopping");
            assertThat(parent.clients()).singleElement().satisfies(c -> assertThat(c.stoppedAt()).isPresent());
        }
    }
}
