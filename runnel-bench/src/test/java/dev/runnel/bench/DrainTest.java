package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobCount;
import dev.runnel.Runnel;
import dev.runnel.testkit.LocalRedis;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The drain harness end to end on the local Postgres, with a worker JVM SIGKILLed mid-drain: the
 * others finish every job, those the killed one was running through the rescuer. Fails, not
 * skips, when Postgres cannot be reached.
 */
class DrainTest {
    static final String URL = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test");

    @Test
    void aWorkerKilledMidDrainLosesNothingAndOnlyItsJobsRunTwice() throws Exception {
        StringWriter log = new StringWriter();
        DrainResult result;
        try (BenchDatabase db = BenchDatabase.open(URL)) {
            // 2,000 jobs of 10 ms on 2 x 10 slots: a drain of about a second, killed half-way.
            result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), 2_000, 2, 10, Duration.ofMillis(100),
                    0, Runnel.Delivery.AT_LEAST_ONCE, Duration.ofMinutes(3), Duration.ofMillis(10),
                    Duration.ofMillis(500), 0, 0, 0), new PrintWriter(log, true)).run();
        }
        assertThat(log.toString()).contains("SIGKILLed worker");
        assertThat(result.killedWorker()).isNotNull();
        assertThat(result.missing()).isZero();
        assertThat(result.notCompleted()).isZero();
        // The killed worker had its ten slots busy (and maybe finished jobs whose completion it had
        // not yet written): those jobs ran again elsewhere, and nothing else did.
        assertThat(result.repeatsOfKilled()).isPositive();
        assertThat(result.duplicates()).isEqualTo(result.repeatsOfKilled());
        assertThat(result.exact()).isTrue();
    }

    @Test
    void underAGlobalLimitNoMoreThanItRunAtOnceAcrossThreeWorkerJvms() throws Exception {
        DrainResult result;
        try (BenchDatabase db = BenchDatabase.open(URL)) {
            // 600 jobs of 2 ms on 3 x 10 slots, at most 4 running at once: the limit, not the
            // slots, sets the pace.
            result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), 600, 3, 10, Duration.ofMillis(100),
                    0, Runnel.Delivery.AT_LEAST_ONCE, Duration.ofMinutes(3), Duration.ofMillis(2), Duration.ZERO, 4, 0, 0),
                    new PrintWriter(new StringWriter(), true)).run();
        }
        assertThat(result.maxRunning()).isBetween(1, 4);
        assertThat(result.toJson()).contains("\"global_limit\":4", "\"max_running\":" + result.maxRunning());
        assertThat(result.exact()).isTrue();
    }

    @Test
    void underAPerKeyLimitNoKeyRunsMoreThanItAtOnce() throws Exception {
        DrainResult result;
        try (BenchDatabase db = BenchDatabase.open(URL)) {
            // 600 jobs of 2 ms over 20 keys on 2 x 10 slots, at most 2 running per key.
            result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), 600, 2, 10, Duration.ofMillis(100),
                    0, Runnel.Delivery.AT_LEAST_ONCE, Duration.ofMinutes(3), Duration.ofMillis(2), Duration.ZERO, 0, 2, 20),
                    new PrintWriter(new StringWriter(), true)).run();
        }
        assertThat(result.maxRunningPerKey()).isBetween(1, 2);
        assertThat(result.maxRunning()).isGreaterThanOrEqualTo(result.maxRunningPerKey());
        assertThat(result.exact()).isTrue();
    }

    @Test
    void onRedisAWorkerKilledMidDrainLosesNothingAndTheServerCountsItsCommandsFunctionCallsAndCpu() throws Exception {
        StringWriter log = new StringWriter();
        DrainResult result;
        try (BenchDatabase db = BenchDatabase.open(LocalRedis.shared().freshUrl())) {
            result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), 2_000, 2, 10, Duration.ofMillis(100),
                    0, Runnel.Delivery.AT_LEAST_ONCE, Duration.ofMinutes(3), Duration.ofMillis(10),
                    Duration.ofMillis(500), 0, 0, 0), new PrintWriter(log, true)).run();
        }
        assertThat(result.driver()).isEqualTo("redis");
        assertThat(log.toString()).contains("SIGKILLed worker");
        assertThat(result.missing()).isZero();
        assertThat(result.notCompleted()).isZero();
        assertThat(result.repeatsOfKilled()).isPositive();
        assertThat(result.exact()).isTrue();
        // From the server's INFO: every job is at least its insert, claim and completion inside
        // functions (several commands each), and the calls themselves are batched, far fewer than
        // one per job; the server's own CPU is reported, wherever it runs.
        assertThat(result.statementsName()).isEqualTo("Redis commands");
        assertThat(result.statementsPerJob()).isGreaterThan(3.0);
        assertThat(result.scriptCallsPerJob()).isPositive().isLessThan(1.0);
        assertThat(result.serverCpuMsPerJob()).isNotNull().isPositive();
        StringWriter table = new StringWriter();
        result.printTable(new PrintWriter(table, true));
        assertThat(table.toString()).contains("Redis commands/job").contains("function calls/job");
        assertThat(result.toJson()).contains("\"script_calls_per_job\":0.");
    }

    @Test
    void onPostgresTheDrainCountsSqlStatementsAndNoScriptCallsAndWhatTheServerWrote() throws Exception {
        DrainResult result;
        try (BenchDatabase db = BenchDatabase.open(URL)) {
            result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), 500, 1, 10, Duration.ofMillis(100), 0,
                    Runnel.Delivery.AT_LEAST_ONCE, Duration.ofMinutes(3)), new PrintWriter(new StringWriter(), true)).run();
        }
        assertThat(result.statementsName()).isEqualTo("SQL statements");
        assertThat(result.scriptCallsPerJob()).isNull();
        assertThat(result.toJson()).contains("\"script_calls_per_job\":null");
        assertThat(result.exact()).isTrue();
        // Each job is claimed and completed: two row versions written by updates, and WAL for both.
        assertThat(result.rowUpdatesPerJob()).isBetween(1.9, 2.5);
        assertThat(result.hotUpdatePct()).isBetween(0.0, 100.0);
        assertThat(result.walBytesPerJob()).isGreaterThan(50.0);
        assertThat(result.toJson()).contains("\"wal_bytes_per_job\":", "\"hot_update_pct\":");
        // The JIT's share is read from the workers' compiler threads: a part of their CPU.
        assertThat(result.workerJitCpuMsPerJob()).isNotNull().isBetween(0.0, result.workerCpuMsPerJob());
        assertThat(result.toJson()).containsPattern("\"worker_jit_cpu_ms_per_job\":\\d+\\.\\d+,");
    }

    @Test
    void eachWorkerWorksTheWarmUpJobsTheHarnessPutInItsOwnQueueBeforeTheTimedDrain() throws Exception {
        try (BenchDatabase db = BenchDatabase.open(URL)) {
            DrainResult result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), 300, 2, 10,
                    Duration.ofMillis(100), 150, Runnel.Delivery.AT_LEAST_ONCE, Duration.ofMinutes(3)),
                    new PrintWriter(new StringWriter(), true)).run();
            assertThat(result.exact()).isTrue();
            Map<String, Long> warmedUp = db.driver().jobCountByState().stream()
                    .filter(c -> c.queue().contains("_warmup_"))
                    .collect(Collectors.groupingBy(c -> c.queue().substring(c.queue().lastIndexOf('_') + 1) + " "
                            + c.state(), Collectors.summingLong(JobCount::count)));
            assertThat(warmedUp).containsOnly(Map.entry("0 COMPLETED", 150L), Map.entry("1 COMPLETED", 150L));
        }
    }

    @Test
    void theDatabaseUrlReachesWorkersThroughTheEnvironmentNotTheCommandLine() {
        String url = "postgres://app:s3cret-pass@db.example:5432/jobs";
        List<String> command = Drain.workerCommand(new Drain.Options(url, 10, 1, 1, Duration.ZERO, 0,
                Runnel.Delivery.AT_LEAST_ONCE, Duration.ofMinutes(1)), "q", "q_warmup_0", Path.of("/tmp/ids"));
        assertThat(String.join(" ", command)).doesNotContain("s3cret-pass").doesNotContain("db.example");
        assertThat(command).contains(DrainWorker.class.getName(), "q");
    }
}
