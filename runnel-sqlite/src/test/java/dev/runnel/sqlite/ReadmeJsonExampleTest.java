package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's guide's JSON example (docs/guide/concepts.md), run; the test fails if the page's code drifts from it. */
class ReadmeJsonExampleTest {
    static final List<String> STORED = new CopyOnWriteArrayList<>();

    // --- guide json example start ---
    record Invoice(long invoiceId, Instant dueAt, Duration grace) implements JobArgs {
        @Override public String kind() { return "invoice"; }
    }

    static void jsonExample(Path file) throws Exception {
        ObjectMapper mapper = RunnelBuilder.defaultObjectMapper()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        try (Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(file))
                .autoMigrate(true)
                .objectMapper(mapper) // Spring's, say; the client keeps a copy made at build()
                .build()) {
            long id = runnel.insert(new Invoice(7, Instant.parse("2030-01-31T00:00:00Z"), Duration.ofDays(3))).id();
            STORED.add(runnel.jobGet(id).orElseThrow().args());
            // {"invoice_id":7,"due_at":"2030-01-31T00:00:00Z","grace":"PT72H"}
        }
    }
    // --- guide json example end ---

    @Test
    void jsonExampleRunsAndMatchesTheGuide(@TempDir Path dir) throws Exception {
        jsonExample(dir.resolve("jobs.db"));
        assertThat(STORED).containsExactly("{\"invoice_id\":7,\"due_at\":\"2030-01-31T00:00:00Z\",\"grace\":\"PT72H\"}");
        String start = "// --- guide json example start ---";
        String source = Files.readString(Path.of("src/test/java/dev/runnel/sqlite/ReadmeJsonExampleTest.java"));
        String example = source.substring(source.indexOf(start) + start.length(),
                source.indexOf("    // --- guide json example end ---"));
        assertThat(squash(Files.readString(Path.of("../docs/guide/concepts.md")))).contains(squash(example));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
