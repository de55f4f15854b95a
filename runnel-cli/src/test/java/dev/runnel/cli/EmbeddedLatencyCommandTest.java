package dev.runnel.cli;

import static dev.runnel.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.cli.Cli.Result;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code runnel scenario embedded-latency}: bad flags, and a whole run ending with its JSON line. */
class EmbeddedLatencyCommandTest {
    @Test
    void badFlagsExitTwoWithOneLineNamingTheFlag() {
        for (List<String> flags : List.of(List.of("--requests", "1999"), List.of("--nice", "20"),
                List.of("--server-threads", "green"), List.of("--concurrency", "0"), List.of("--rounds", "50"))) {
            List<String> all = new java.util.ArrayList<>(List.of("scenario", "embedded-latency"));
            all.addAll(flags);
            String[] args = all.toArray(String[]::new);
            Result r = run(args);
            assertThat(r.code()).as(String.join(" ", flags)).isEqualTo(2);
            assertThat(r.err().lines().filter(l -> !l.isBlank()).count()).as(String.join(" ", flags)).isEqualTo(1);
            assertThat(r.err()).contains(flags.getFirst());
        }
    }

    @Test
    @Tag("load")
    void aRunEndsWithOneJsonLineOfEveryCasesFigures() throws Exception {
        Result r = run("scenario", "embedded-latency", "--rounds", "1", "--warmup", "20", "--job-ms", "2", "--json");
        assertThat(r.code()).as(r.err()).isIn(0, Main.EXIT_FAILURE);
        List<String> lines = r.out().lines().filter(l -> !l.isBlank()).toList();
        JsonNode json = new ObjectMapper().readTree(lines.getLast());
        assertThat(json.get("scenario").asText()).isEqualTo("embedded-latency");
        assertThat(json.get("cores").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(json.get("cases")).hasSize(3);
        for (JsonNode c : json.get("cases")) {
            assertThat(c.get("requests").asInt()).isEqualTo(2_000);
            assertThat(c.get("p50_ms").asDouble()).isGreaterThanOrEqualTo(10.0);
            assertThat(c.get("p99_ms").asDouble()).isGreaterThanOrEqualTo(c.get("p50_ms").asDouble());
            assertThat(c.get("p999_ms").asDouble()).isGreaterThanOrEqualTo(c.get("p99_ms").asDouble());
        }
        assertThat(json.get("cases").get(2).get("jobs_per_sec").asDouble()).isPositive();
        assertThat(json.get("target_met").asBoolean()).isEqualTo(r.code() == 0);
    }
}
