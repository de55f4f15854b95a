package dev.runnel.cli;

import static dev.runnel.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.cli.Cli.Result;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runnel scenario sqlite-contention}: its flags, and a short run's JSON line. */
class SqliteContentionCommandTest {
    @Test
    void badFlagsAndBadBusyParametersExitTwoWithOneLine(@TempDir Path dir) {
        for (List<String> args : List.of(List.of("--processes", "0"), List.of("--duration", "100ms"),
                List.of("--wait", "polite"), List.of("--slow", "2m"))) {
            String[] full = java.util.stream.Stream.concat(java.util.stream.Stream.of("scenario", "sqlite-contention"),
                    args.stream()).toArray(String[]::new);
            Result r = run(full);
            assertThat(r.code()).as(args.toString()).isEqualTo(2);
            assertThat(r.err().lines().filter(l -> !l.isBlank()).count()).as(args.toString()).isEqualTo(1);
        }
        Result url = run("migrate", "up", "--database-url", "sqlite://" + dir.resolve("a.db") + "?busy=polite");
        assertThat(url.code()).isEqualTo(2);
        assertThat(url.err()).contains("busy must be fair or native");
    }

    @Test
    void aShortRunEndsWithOneJsonLineOfBothWaits() throws Exception {
        Result r = run("scenario", "sqlite-contention", "--processes", "2", "--threads", "2", "--duration", "2s",
                "--slow", "200ms", "--slow-gap", "200ms", "--json");
        List<String> lines = r.out().lines().filter(l -> !l.isBlank()).toList();
        JsonNode json = new ObjectMapper().readTree(lines.getLast());
        assertThat(json.get("scenario").asText()).isEqualTo("sqlite-contention");
        assertThat(json.get("waits")).hasSize(2);
        for (JsonNode wait : json.get("waits")) {
            assertThat(wait.get("writes").asLong()).as(wait.toString()).isPositive();
            assertThat(wait.get("errors").asLong()).as(wait.toString()).isZero();
            assertThat(wait.get("slow_transactions_ms")).as(wait.toString()).isNotEmpty();
            for (String field : List.of("p50_ms", "p95_ms", "p99_ms", "p99_99_ms", "fastest_connection_ms",
                    "slowest_connection_ms")) {
                assertThat(wait.get(field).asDouble()).as(field).isPositive();
            }
        }
        assertThat(json.get("waits").get(0).get("wait").asText()).isEqualTo("native");
        assertThat(json.get("waits").get(1).get("wait").asText()).isEqualTo("fair");
        assertThat(r.code()).as("exit 0 exactly when the fair wait met its target").isEqualTo(
                json.get("passed").asBoolean() ? 0 : Main.EXIT_FAILURE);
    }
}
