package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InsertOptionsTest {
    @Test
    void givenOptionsWinOverDefaults() {
        InsertOptions defaults = InsertOptions.builder().queue("q").priority(3).maxAttempts(5).tags("a").build();
        InsertOptions given = InsertOptions.builder().priority(2).build();
        InsertOptions merged = given.orElse(defaults);
        assertThat(merged.queue()).contains("q");
        assertThat(merged.priority()).hasValue(2);
        assertThat(merged.maxAttempts()).hasValue(5);
        assertThat(merged.tags()).contains(List.of("a"));
        assertThat(merged.scheduledAt()).isEmpty();
        assertThat(InsertOptions.NONE.orElse(InsertOptions.NONE).queue()).isEmpty();
    }

    @Test
    void eachInvalidValueNamesItsOption() {
        assertThatThrownBy(() -> InsertOptions.builder().priority(0)).hasMessageStartingWith("priority");
        assertThatThrownBy(() -> InsertOptions.builder().maxAttempts(-1)).hasMessageStartingWith("maxAttempts");
        assertThatThrownBy(() -> InsertOptions.builder().queue("")).hasMessageStartingWith("queue");
        assertThatThrownBy(() -> InsertOptions.builder().queue(" padded")).hasMessageStartingWith("queue");
        assertThatThrownBy(() -> InsertOptions.validateKind("k".repeat(129))).hasMessageStartingWith("kind");
        assertThatThrownBy(() -> InsertOptions.builder().tags("a b")).hasMessageStartingWith("tags");
        assertThatThrownBy(() -> InsertOptions.builder().scheduledAt(null)).hasMessageStartingWith("scheduledAt");
        assertThat(InsertOptions.builder().tags("ok_tag", "with-dash", "x1").scheduledAt(Instant.EPOCH).build().tags())
                .contains(List.of("ok_tag", "with-dash", "x1"));
    }

    @Test
    void aScheduledTimeAfterTheLatestStorableIsThatTimeAndOneBeforeTheYearOneIsRefused() {
        assertThat(InsertOptions.builder().scheduledAt(Instant.MAX).build().scheduledAt())
                .contains(Instant.parse("9999-12-31T23:59:59.999999Z"));
        Instant last = Instant.parse("9999-12-31T23:59:59.999999999Z");
        assertThat(InsertOptions.builder().scheduledAt(last).build().scheduledAt()).contains(InsertOptions.MAX_SCHEDULED_AT);
        Instant first = Instant.parse("0001-01-01T00:00:00Z");
        assertThat(InsertOptions.builder().scheduledAt(first).build().scheduledAt()).contains(first);
        assertThatThrownBy(() -> InsertOptions.builder().scheduledAt(first.minusNanos(1)))
                .hasMessage("scheduledAt must not be before 0001-01-01T00:00:00Z, was 0000-12-31T23:59:59.999999999Z");
    }

    @Test
    void aTimeTooFarToCountInMicrosecondsIsRefusedNotWrappedAround() {
        assertThatThrownBy(() -> dev.runnel.driver.Times.toMicros(Instant.MAX)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Instant.MAX.toString());
        assertThatThrownBy(() -> dev.runnel.driver.Times.toMicros(Instant.MIN)).hasMessageContaining(Instant.MIN.toString());
        assertThat(dev.runnel.driver.Times.toMicros(Instant.parse("1960-01-01T00:00:00.000001Z"))).isEqualTo(-315_619_199_999_999L);
    }
}
