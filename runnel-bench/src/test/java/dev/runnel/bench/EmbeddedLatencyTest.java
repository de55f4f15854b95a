package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario's arithmetic and its JSON line; the run itself is `runnel scenario embedded-latency`. */
class EmbeddedLatencyTest {
    private static final EmbeddedLatency.Options OPTIONS =
            new EmbeddedLatency.Options(2_000, 4, 100, 4, 10, 5, EmbeddedLatency.ServerThreads.PLATFORM);

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = new long[2_000];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertThat(EmbeddedLatency.percentile(sorted, 0.50)).isEqualTo(1_000);
        assertThat(EmbeddedLatency.percentile(sorted, 0.99)).isEqualTo(1_980);
        assertThat(EmbeddedLatency.percentile(sorted, 0.999)).isEqualTo(1_998);
    }

    @Test
    void theJsonLineHoldsEveryCaseTheRatioAndWhetherTheTargetWasMet() throws Exception {
        EmbeddedLatencyResult result = new EmbeddedLatencyResult(2, 8, 10, 30, OPTIONS, List.of(
                new EmbeddedLatencyResult.Case("a", "no jobs", 2_000, 11, 12, 14, 15, 0, 0),
                new EmbeddedLatencyResult.Case("b", "virtual", 2_000, 15, 60, 90, 95, 2, 300),
                new EmbeddedLatencyResult.Case("c", "pool", 2_000, 11.5, 16, 20, 22, 7.5, 250)));
        JsonNode json = new ObjectMapper().readTree(result.toJson());
        assertThat(json.get("cores").asInt()).isEqualTo(2);
        assertThat(json.get("nice").asInt()).isEqualTo(10);
        assertThat(json.get("cases")).hasSize(3);
        assertThat(json.get("cases").get(2).get("p99_ms").asDouble()).isEqualTo(16.0);
        assertThat(json.get("cases").get(1).get("p999_ms").asDouble()).isEqualTo(90.0);
        assertThat(json.get("ratio_c_a_p99").asDouble()).isEqualTo(16.0 / 12, org.assertj.core.data.Offset.offset(0.001));
        assertThat(json.get("target_met").asBoolean()).isTrue();
        assertThat(result.toJson()).doesNotContain("\n");
    }

    @Test
    void tooFewRequestsOrABadNiceAreRefused() {
        assertThatThrownBy(() -> new EmbeddedLatency.Options(1_999, 4, 100, 4, 10, 5,
                EmbeddedLatency.ServerThreads.PLATFORM)).hasMessageContaining("at least 2000");
        assertThatThrownBy(() -> new EmbeddedLatency.Options(2_000, 4, 100, 4, 20, 5,
                EmbeddedLatency.ServerThreads.PLATFORM)).hasMessageContaining("nice");
    }

    @Test
    void calibrationFindsAFibonacciNumberTakingAboutTheTimeAsked() {
        int n = EmbeddedLatency.calibrate(2);
        long t0 = System.nanoTime();
        EmbeddedLatency.sink ^= EmbeddedLatency.fib(n);
        assertThat(n).isBetween(20, 45);
        assertThat(System.nanoTime() - t0).isGreaterThan(500_000L);
    }
}
