package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.testkit.LocalRedis;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The idle-cluster scenario in miniature on the local Postgres and on Redis: its shape and what it
 * counts, not its timings. Fails, not skips, when Postgres is missing.
 */
class IdleClusterTest {
    @Test
    void idleListeningClientsClaimAtTheirSafetyPollAndEachQueueReadsItsLimitsFromOneSharedReading() throws Exception {
        StringWriter text = new StringWriter();
        IdleCluster.Result r = new IdleCluster(new IdleCluster.Options(LatencyTest.URL, 2, 5, Duration.ofSeconds(1),
                Duration.ofSeconds(2), Optional.of(Duration.ofMinutes(10))), new PrintWriter(text, true)).run();
        assertThat(r.clients()).isEqualTo(2);
        assertThat(r.queues()).isEqualTo(5);
        assertThat(r.seconds()).isGreaterThanOrEqualTo(2);
        assertThat(r.statementsName()).isEqualTo("SQL statements");
        assertThat(r.scriptCalls()).isEqualTo(-1);
        assertThat(r.serverCpuPct()).isNotNegative();
        assertThat(r.clientsCpuPct()).isNotNegative();
        if (r.notCounted().isPresent()) {
            // A server without pg_stat_statements: the figure is absent, and the output says why.
            assertThat(r.statements()).isEqualTo(-1);
            assertThat(text.toString()).contains("statements not counted: pg_stat_statements");
        } else {
            assertThat(r.statements()).as("the heartbeats and elections of 2 clients over 2 s, and no claim: %s", text)
                    .isBetween(1L, 30L);
            assertThat(r.topStatements().keySet()).noneMatch(q -> q.startsWith("WITH locked"));
        }
        assertThat(r.toJson()).startsWith("{\"scenario\":\"idle-cluster\"").contains("\"statements_per_sec\":",
                "\"server_cpu_pct\":", "\"clients_cpu_pct\":", "\"top_statements\":[");
        assertThat(text.toString()).contains("idle cluster: 2 clients x 5 queues");
    }

    @Test
    void onRedisItCountsTheServersCommandsAndFunctionCallsAndItsOwnCpu() throws Exception {
        StringWriter text = new StringWriter();
        IdleCluster.Result r = new IdleCluster(new IdleCluster.Options(LocalRedis.shared().freshUrl(), 2, 5,
                Duration.ofSeconds(1), Duration.ofSeconds(2), Optional.of(Duration.ofMillis(500))),
                new PrintWriter(text, true)).run();
        assertThat(r.notCounted()).isEmpty();
        assertThat(r.statementsName()).isEqualTo("Redis commands");
        // The heartbeats, elections and looks at the queues of 2 clients over 2 s: function calls,
        // and the commands they ran.
        assertThat(r.scriptCalls()).as("%s", text).isPositive();
        assertThat(r.statements()).as("%s", text).isGreaterThan(r.scriptCalls());
        assertThat(r.topStatements()).as("%s", text).containsKey("fcall").hasSizeLessThanOrEqualTo(5);
        assertThat(r.serverCpuPct()).isNotNegative();
        assertThat(r.toJson()).contains("\"statements_name\":\"Redis commands\"", "\"script_calls\":");
        assertThat(text.toString()).contains("idle cluster: 2 clients x 5 queues", "Redis commands/s", "function calls");
    }
}
