package dev.runnel.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.JobError;
import dev.runnel.RunnelException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobJsonTest {
    @Test
    void stringArraysDecodeWithAndWithoutTheFastPath() {
        assertThat(JobJson.decodeStrings(null)).isEmpty();
        assertThat(JobJson.decodeStrings("[]")).isEmpty();
        assertThat(JobJson.decodeStrings("[\"a\"]")).containsExactly("a");
        assertThat(JobJson.decodeStrings("[\"host-1 x\",\"b\"]")).containsExactly("host-1 x", "b");
        assertThat(JobJson.decodeStrings("[\"a\", \"b\"]")).containsExactly("a", "b");
        assertThat(JobJson.decodeStrings("[\"a\",\n\"b\"]")).containsExactly("a", "b");
        assertThat(JobJson.decodeStrings("[\"q\\\"uote\",\"c\"]")).containsExactly("q\"uote", "c");
        assertThat(JobJson.decodeStrings("[\"\"]")).containsExactly("");
        assertThat(JobJson.decodeStrings("[\"a\",\"b\",\"c\"]")).containsExactly("a", "b", "c");
        assertThat(JobJson.decodeStrings("[\"\",\"a\"]")).containsExactly("", "a");
        assertThat(JobJson.decodeStrings("[\"a\",\"\"]")).containsExactly("a", "");
        assertThat(JobJson.decodeStrings("[\"a\",\"\",\"\"]")).containsExactly("a", "", "");
        List<String> odd = List.of("a\",\"b", "x");
        assertThat(JobJson.decodeStrings(JobJson.encodeStrings(odd))).isEqualTo(odd);
    }

    @Test
    void aMalformedStringArrayIsReportedNotMisread() {
        assertThatThrownBy(() -> JobJson.decodeStrings("[\"a\",\"]")).isInstanceOf(RunnelException.class)
                .hasMessageContaining("stored JSON is malformed");
        assertThatThrownBy(() -> JobJson.decodeStrings("[\"a\"\"b\"]")).isInstanceOf(RunnelException.class)
                .hasMessageContaining("stored JSON is malformed");
    }

    @Test
    void errorsRoundTrip() {
        JobError e = new JobError(2, Instant.parse("2030-01-01T00:00:00.123456Z"), "boom \"x\"", "at a\nat b");
        assertThat(JobJson.decodeError(JobJson.encodeError(e))).isEqualTo(e);
        assertThat(JobJson.decodeErrors("[" + JobJson.encodeError(e) + "]")).containsExactly(e);
    }
}
