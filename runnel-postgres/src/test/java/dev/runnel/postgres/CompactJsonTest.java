package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class CompactJsonTest {
    private static String compact(String json) {
        return CompactJson.of(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void removesWhitespaceOutsideStringsOnly() {
        assertThat(compact("{\"b\": [1, 2], \"name\": \"a b\", \"q\": \"say \\\"hi, there\\\" \\\\\"}"))
                .isEqualTo("{\"b\":[1,2],\"name\":\"a b\",\"q\":\"say \\\"hi, there\\\" \\\\\"}");
    }

    @Test
    void anEscapeBeforeTheFirstWhitespaceIsKept() {
        assertThat(compact("{\"q\":\"a\\\" b\", \"r\": 1}")).isEqualTo("{\"q\":\"a\\\" b\",\"r\":1}");
    }

    @Test
    void keepsCharactersOfManyBytes() {
        assertThat(compact("{\"note\": \"café 日本 😀\", \"n\": [1, \"é é\"]}"))
                .isEqualTo("{\"note\":\"café 日本 😀\",\"n\":[1,\"é é\"]}");
    }

    @Test
    void leavesCompactJsonAsItIsAndNullAsNull() {
        assertThat(compact("{\"a\":1}")).isEqualTo("{\"a\":1}");
        assertThat(CompactJson.of(null)).isNull();
    }

    @Test
    void valuesCompactedInOneBufferEachReadAsTheirOwn() {
        CompactJson.Buffer buffer = new CompactJson.Buffer();
        String big = "{\"s\": \"" + "y ".repeat(400) + "\", \"n\": 1}";
        for (String json : new String[] {"{\"a\": 1, \"b\": 2}", big, "{\"c\": [3, 4]}", "{\"d\":5}", big, "{\"e\": 6}"}) {
            byte[] utf8 = json.getBytes(StandardCharsets.UTF_8);
            assertThat(CompactJson.of(utf8, buffer)).isEqualTo(CompactJson.of(utf8));
        }
        assertThat(CompactJson.of("{\"c\": [3, 4]}".getBytes(StandardCharsets.UTF_8), buffer)).isEqualTo("{\"c\":[3,4]}");
    }

    @Test
    void readsJsonbsBinaryFormAsItsText() {
        byte[] binary = "\u0001{\"a\": 1}".getBytes(StandardCharsets.UTF_8);
        assertThat(CompactJson.of(binary)).isEqualTo("{\"a\":1}");
    }

    @Test
    void readsJsonbColumnsAsPostgresSendsThem() throws Exception {
        try (Connection c = PostgresTestSchema.admin(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select '{\"note\": \"café 日本 😀\", \"q\": \"a \\\"b\\\", c\", \"n\": [1, 2.5, null]}'::jsonb,"
                        + " null::jsonb, '{}'::jsonb")) {
            assertThat(rs.next()).isTrue();
            assertThat(CompactJson.read(rs, 1)).isEqualTo("{\"n\":[1,2.5,null],\"q\":\"a \\\"b\\\", c\",\"note\":\"café 日本 😀\"}");
            assertThat(CompactJson.read(rs, 2)).isNull();
            assertThat(CompactJson.read(rs, 3)).isEqualTo("{}");
        }
    }
}
