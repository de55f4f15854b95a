package dev.runnel.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlFileTest {
    private static ByteArrayInputStream text(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void parsesNamedBlocksWithoutComments() {
        SqlFile f = SqlFile.parse("t.sql", text("""
                -- header comment
                -- name: A
                -- about A
                SELECT 1
                FROM {schema}.t;

                -- name: B
                UPDATE x SET y = 1;
                """), Set.of("A", "B"));
        assertThat(f.get("A")).isEqualTo("SELECT 1\nFROM {schema}.t");
        assertThat(f.withSchema("s1").get("A")).isEqualTo("SELECT 1\nFROM s1.t");
        assertThat(f.get("B")).isEqualTo("UPDATE x SET y = 1");
    }

    @Test
    void missingRequiredStatementFailsAtLoad() {
        assertThatThrownBy(() -> SqlFile.parse("t.sql", text("-- name: A\nSELECT 1;\n"), Set.of("A", "Missing")))
                .hasMessageContaining("Missing");
    }

    @Test
    void timesRoundTripAtMicroseconds() {
        Instant t = Instant.parse("2030-01-01T00:00:00.123456789Z");
        assertThat(Times.fromMicros(Times.toMicros(t))).isEqualTo(Instant.parse("2030-01-01T00:00:00.123456Z"));
        Instant before = Instant.parse("1969-12-31T23:59:59.999999Z");
        assertThat(Times.fromMicros(Times.toMicros(before))).isEqualTo(before);
    }
}
