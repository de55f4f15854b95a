package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.cli.Cli.Result;
import dev.runnel.sqlite.SqliteDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runnel periodic} on a real SQLite file. */
class PeriodicCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Result run(String... args) {
        return Cli.runOn("sqlite://" + dir.resolve("x.db"), args);
    }

    private JsonNode list() throws Exception {
        Result r = run("periodic", "list", "--json");
        assertThat(r.code()).isZero();
        return JSON.readTree(r.out());
    }

    @BeforeEach
    void migrate() {
        assertThat(run("migrate", "up").code()).isZero();
    }

    @Test
    void addListEditPauseResumeRemove() throws Exception {
        Result added = run("periodic", "add", "nightly", "--cron", "30 2 * * *", "--zone", "Europe/Berlin",
                "--kind", "report", "--args", "{\"format\":\"pdf\"}", "--queue", "reports", "--priority", "2",
                "--max-attempts", "3", "--tag", "a", "--tag", "b", "--metadata", "{\"team\":\"ops\"}",
                "--catch-up", "latest");
        assertThat(added.code()).isZero();
        assertThat(added.out()).contains("stored nightly").contains("next run 20");
        assertThat(run("periodic", "add", "ping", "--every", "5m", "--kind", "ping").code()).isZero();

        JsonNode rows = list();
        assertThat(rows).hasSize(2);
        JsonNode nightly = rows.get(0);
        assertThat(nightly.get("name").asText()).isEqualTo("nightly");
        assertThat(nightly.get("schedule").asText()).isEqualTo("30 2 * * *");
        assertThat(nightly.get("zone").asText()).isEqualTo("Europe/Berlin");
        assertThat(nightly.get("args").get("format").asText()).isEqualTo("pdf");
        assertThat(nightly.get("queue").asText()).isEqualTo("reports");
        assertThat(nightly.get("priority").asInt()).isEqualTo(2);
        assertThat(nightly.get("max_attempts").asInt()).isEqualTo(3);
        assertThat(nightly.get("tags")).hasSize(2);
        assertThat(nightly.get("metadata").get("team").asText()).isEqualTo("ops");
        assertThat(nightly.get("catch_up").asText()).isEqualTo("latest");
        assertThat(nightly.get("declared").asBoolean()).isFalse();
        assertThat(nightly.get("next_run").asText()).endsWith(":30:00Z");
        assertThat(rows.get(1).get("schedule").asText()).isEqualTo("@every PT5M");

        Result table = run("periodic", "list");
        assertThat(table.out().lines().findFirst().orElseThrow()).startsWith("NAME").contains("NEXT RUN");
        assertThat(table.out()).contains("30 2 * * * Europe/Berlin").contains("@every PT5M").contains("active");
        assertThat(table.out().lines().mapToInt(String::length).max().orElseThrow()).isLessThan(200);

        // The same again changes nothing; with other args it is an edit.
        assertThat(run("periodic", "add", "ping", "--every", "5m", "--kind", "ping").out()).contains("unchanged ping");
        assertThat(run("periodic", "add", "ping", "--every", "5m", "--kind", "ping", "--args", "{\"x\":1}").out())
                .contains("stored ping");
        assertThat(list().get(1).get("args").get("x").asInt()).isEqualTo(1);

        assertThat(run("periodic", "pause", "ping").out()).contains("paused ping");
        assertThat(list().get(1).get("paused").asBoolean()).isTrue();
        assertThat(list().get(1).get("next_run").isNull()).isTrue();
        assertThat(run("periodic", "list").out()).contains("paused since");
        assertThat(run("periodic", "resume", "ping").out()).contains("resumed ping");
        assertThat(list().get(1).get("paused").asBoolean()).isFalse();
        assertThat(run("periodic", "remove", "ping").out()).contains("removed ping");
        assertThat(list()).hasSize(1);

        for (String command : List.of("remove", "pause", "resume")) {
            Result missing = run("periodic", command, "ping");
            assertThat(missing.code()).as(command).isEqualTo(1);
            assertThat(missing.err().lines().count()).isEqualTo(1);
            assertThat(missing.err()).contains("no periodic job named ping");
        }
    }

    @Test
    void badFlagsExitTwoWithOneLineAndWriteNothing() throws Exception {
        String[][] bad = {
            {"--cron", "61 * * * *", "--kind", "k"},
            {"--cron", "0 0 31 2 *", "--kind", "k"},
            {"--every", "500ms", "--kind", "k"},
            {"--every", "1.5s", "--kind", "k"},
            {"--every", "soon", "--kind", "k"},
            {"--cron", "* * * * *", "--every", "1m", "--kind", "k"},
            {"--kind", "k"},
            {"--every", "1m"},
            {"--every", "1m", "--kind", "k", "--args", "[1]"},
            {"--every", "1m", "--kind", "k", "--args", "{oops"},
            {"--every", "1m", "--kind", "k", "--catch-up", "sometimes"},
            {"--every", "1m", "--kind", "k", "--zone", "Europe/Berlin"},
            {"--cron", "* * * * *", "--kind", "k", "--zone", "Mars/Olympus"},
            {"--every", "1m", "--kind", "k", "--priority", "9"},
            {"--every", "1m", "--kind", "k", "--metadata", "{bad"},
            {"--every", "1m", "--kind", "k", "--metadata", "{\"tick\":1}"},
        };
        for (String[] flags : bad) {
            String[] args = new String[flags.length + 3];
            args[0] = "periodic";
            args[1] = "add";
            args[2] = "job";
            System.arraycopy(flags, 0, args, 3, flags.length);
            Result r = run(args);
            assertThat(r.code()).as(String.join(" ", flags)).isEqualTo(2);
            assertThat(r.err().lines().count()).as(String.join(" ", flags)).isEqualTo(1);
        }
        assertThat(run("periodic", "add", "job", "--cron", "61 * * * *", "--kind", "k").err())
                .contains("'61 * * * *'");
        assertThat(run("periodic", "add", "job", "--every", "1.5s", "--kind", "k").err()).contains("PT1.5S");
        assertThat(list()).isEmpty();
        assertThat(run("periodic", "list").out()).contains("no periodic jobs");
        assertThat(run("periodic", "pause").code()).isEqualTo(2);
    }

    record Ping(String target) implements JobArgs {
        @Override
        public String kind() {
            return "ping";
        }
    }

    @Test
    void aJobAddedFromTheCommandLineIsWorkedByARunningClient() throws Exception {
        List<String> targets = new CopyOnWriteArrayList<>();
        try (Runnel runnel = Runnel.builder().driver(SqliteDriver.open(dir.resolve("x.db"))).queue("default", 2)
                .worker(Ping.class, job -> targets.add(job.args().target())).fetchPollInterval(Duration.ofMillis(50))
                .schedulerInterval(Duration.ofMillis(50)).build()) {
            runnel.start();
            assertThat(run("periodic", "add", "ping", "--every", "1s", "--kind", "ping", "--args",
                    "{\"target\":\"db\"}").code()).isZero();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (targets.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(targets).isNotEmpty().allMatch("db"::equals);
            assertThat(list().get(0).get("last_tick").isNull()).isFalse();
        }
    }
}
