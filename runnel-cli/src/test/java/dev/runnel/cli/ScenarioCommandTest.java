package dev.runnel.cli;

import static dev.runnel.cli.Cli.exitsTwoWithOneLine;
import static dev.runnel.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.cli.Cli.Result;
import org.junit.jupiter.api.Test;

/**
 * {@code runnel scenario jobs-table} and {@code runnel bench --latency} on bad input: one line and
 * exit 2, before anything runs. Their figures are tested in runnel-bench (JobsTableTest, LatencyTest).
 */
class ScenarioCommandTest {
    @Test
    void jobsTableRejectsBadFlags() {
        exitsTwoWithOneLine(run("scenario", "jobs-table", "--postgres-url", "sqlite://x.db"), "--postgres-url");
        exitsTwoWithOneLine(run("scenario", "jobs-table", "--database-url", "mysql://x"), "--database-url");
        exitsTwoWithOneLine(run("scenario", "jobs-table", "--idle", "0s"), "--idle");
        exitsTwoWithOneLine(run("scenario", "jobs-table", "--idle", "soon"), "soon");
        exitsTwoWithOneLine(run("scenario", "jobs-table", "--warmup", "-1"), "--warmup");
        exitsTwoWithOneLine(run("scenario", "jobs-table", "--only", "cpu,nap"), "--only: no workload named 'nap'");
    }

    @Test
    void jobsTableRunsOnlyTheRowsAskedFor() {
        Result r = run("scenario", "jobs-table", "--only", "cpu", "--warmup", "500", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().findFirst().orElseThrow()).startsWith("warm-up: 500 no-op jobs");
        assertThat(r.out().lines().filter(l -> l.startsWith("cpu ")).count()).isEqualTo(4);
        assertThat(r.out().lines().filter(l -> l.startsWith("no-op ") || l.startsWith("idle "))).isEmpty();
        String json = r.out().lines().reduce((a, b) -> b).orElseThrow();
        assertThat(json).startsWith("{").contains("\"workload\":\"cpu\"").doesNotContain("\"workload\":\"idle\"");
    }

    @Test
    void latencyBenchRejectsBadFlags() {
        exitsTwoWithOneLine(run("bench", "--latency", "--rate", "0"), "--rate");
        exitsTwoWithOneLine(run("bench", "--latency", "--latency-jobs", "0"), "--latency-jobs");
        exitsTwoWithOneLine(run("bench", "--latency", "--latency-warmup", "-1"), "--latency-warmup");
        exitsTwoWithOneLine(run("bench", "--latency", "--postgres-url", "sqlite://x.db"), "--postgres-url");
        exitsTwoWithOneLine(run("bench", "--latency", "--load", "-1"), "--load");
    }

    @Test
    void idleClusterRejectsBadFlagsBeforeStartingAnything() {
        exitsTwoWithOneLine(run("scenario", "idle-cluster", "--database-url", "sqlite://x.db"), "--database-url");
        exitsTwoWithOneLine(run("scenario", "idle-cluster", "--clients", "0"), "--clients");
        exitsTwoWithOneLine(run("scenario", "idle-cluster", "--queues", "0"), "--queues");
        exitsTwoWithOneLine(run("scenario", "idle-cluster", "--duration", "0s"), "--duration");
        exitsTwoWithOneLine(run("scenario", "idle-cluster", "--fetch-safety-poll-interval", "0s"),
                "--fetch-safety-poll-interval");
    }

    @Test
    void scenarioListsJobsTable() {
        Result r = run("scenario", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("jobs-table");
        Result help = run("scenario", "jobs-table", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("%CPU", "--idle", "--postgres-url").doesNotContain("%%");
        assertThat(help.err()).isEmpty();
    }
}
