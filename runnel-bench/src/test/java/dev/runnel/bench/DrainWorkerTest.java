package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DrainWorkerTest {
    @Test
    void warmUpJobsWaitAsTheDrainsDoUpToAMillisecond() {
        assertThat(DrainWorker.warmUpJobTime(Duration.ZERO)).isZero();
        assertThat(DrainWorker.warmUpJobTime(Duration.ofNanos(500_000))).isEqualTo(Duration.ofNanos(500_000));
        assertThat(DrainWorker.warmUpJobTime(Duration.ofMillis(1))).isEqualTo(Duration.ofMillis(1));
        assertThat(DrainWorker.warmUpJobTime(Duration.ofMillis(20))).isEqualTo(Duration.ofMillis(1));
    }
}
