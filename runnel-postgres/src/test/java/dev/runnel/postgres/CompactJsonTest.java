package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompactJsonTest {

    @Test
    void removesWhitespaceOutsideStringsOnly() {
        assertThat(CompactJson.of("{\"b\": [1, 2], \"name\": \"a b\", \"q\": \"say \\\"hi, there\\\" \\\\\"}"))
                .isEqualTo("{\"b\":[1,2],\"name\":\"a b\",\"q\":\"say \\\"hi, there\\\" \\\\\"}");
    }

    @Test
    void leavesCompactJsonAndNullAlone() {
        String compact = "{\"a\":1}";
        assertThat(CompactJson.of(compact)).isSameAs(compact);
        assertThat(CompactJson.of(null)).isNull();
    }
}
