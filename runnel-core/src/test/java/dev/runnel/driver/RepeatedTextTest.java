package dev.runnel.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RepeatedTextTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void decodesEachValueAndReusesTheStringOfARepeatedOne() {
        RepeatedText text = new RepeatedText();
        String first = text.of(utf8("send_email"));
        assertThat(first).isEqualTo("send_email");
        assertThat(text.of(utf8("send_email"))).isSameAs(first);
        assertThat(text.of(utf8("k\u00efnd \ud83d\ude00"))).isEqualTo("k\u00efnd \ud83d\ude00");
        assertThat(text.of(null)).isNull();
        assertThat(text.of(utf8("send_email"))).isEqualTo("send_email").isNotSameAs(first);
        assertThat(text.of(utf8(""))).isEmpty();
    }
}
