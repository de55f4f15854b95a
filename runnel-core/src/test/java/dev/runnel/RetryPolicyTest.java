package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    @Test
    void defaultIsAttemptToTheFourthWithTenPercentJitter() {
        for (int attempt = 1; attempt <= 25; attempt++) {
            double base = Math.pow(attempt, 4) * 1000;
            for (int i = 0; i < 50; i++) {
                long ms = RetryPolicy.DEFAULT.delay(attempt).toMillis();
                assertThat((double) ms).isBetween(base * 0.9 - 1, base * 1.1);
            }
        }
    }

    @Test
    void jitterSpreadsRetries() {
        long distinct = java.util.stream.IntStream.range(0, 100)
                .mapToObj(i -> RetryPolicy.DEFAULT.delay(3)).distinct().count();
        assertThat(distinct).isGreaterThan(50);
        assertThat(RetryPolicy.DEFAULT.delay(1)).isLessThan(Duration.ofMillis(1101));
    }
}
