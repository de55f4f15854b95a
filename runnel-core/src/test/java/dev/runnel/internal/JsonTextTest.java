package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonTextTest {
    @Test
    void measuresTheBytesOfUtf8() {
        for (String json : new String[] {"{}", "{\"a\":\"plain\"}", "{\"é\":\"ß 日本語\"}", "{\"e\":\"😀 and 𝄞\"}",
                "{\"x\":\"\\u00e9 \\ud83d\\ude00 \\\\u0000 \\\\ud800\"}"}) {
            assertThat(JsonText.scan(json)).as(json).isEqualTo(json.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void findsALoneSurrogateRawOrEscapedAndSaysWhichStringHoldsIt() {
        assertProblem("{\"name\":\"cut \uD83D\"}", 13, "the string at /name holds a lone surrogate (U+D83D)");
        assertProblem("{\"a\":[1,\"\uDE00x\"]}", 9, "the string at /a/1 holds a lone surrogate (U+DE00)");
        assertProblem("{\"k\uD800\":1}", 3, "a field name in the object at the top level holds a lone surrogate (U+D800)");
        assertProblem("{\"o\":{\"p\":\"\\ud800\"}}", 11, "the string at /o/p holds a lone surrogate (U+D800)");
        assertProblem("{\"o\":\"\\udc00\\ud800\"}", 6, "the string at /o holds a lone surrogate (U+DC00)");
        assertProblem("{\"o\":\"\\ud800x\"}", 6, "the string at /o holds a lone surrogate (U+D800)");
        assertProblem("\"\uD800\"", 1, "the string at the top level holds a lone surrogate");
    }

    @Test
    void findsAnEscapedNulButNotAnEscapedBackslashBeforeU0000() {
        assertProblem("{\"n\":\"a\\u0000b\"}", 7, "the string at /n holds a NUL character");
        assertThat(JsonText.scan("{\"n\":\"a\\\\u0000b\"}")).isPositive();
        assertProblem("{\"n\":\"a\\\\\\u0000b\"}", 9, "the string at /n holds a NUL character");
    }

    private static void assertProblem(String json, int index, String message) {
        long scanned = JsonText.scan(json);
        assertThat(scanned).as(json).isEqualTo(-1L - index);
        assertThat(JsonText.problemAt(json, index)).startsWith(message);
    }
}
