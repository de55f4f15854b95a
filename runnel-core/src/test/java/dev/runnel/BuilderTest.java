package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BuilderTest {
    record Ping(String target) implements JobArgs {
        @Override
        public String kind() {
            return "ping";
        }
    }

    @Test
    void invalidConfigurationIsRejected() {
        assertThatThrownBy(() -> Runnel.builder().build()).hasMessageContaining("driver");
        assertThatThrownBy(() -> Runnel.builder().queue("q", 0)).hasMessageContaining("maxWorkers");
        assertThatThrownBy(() -> Runnel.builder().queue("q", 1).queue("q", 2)).hasMessageContaining("twice");
        assertThatThrownBy(() -> Runnel.builder().fetchPollInterval(Duration.ZERO)).hasMessageContaining("fetchPollInterval");
        assertThatThrownBy(() -> Runnel.builder().jobTimeout(Duration.ofSeconds(-1))).hasMessageContaining("jobTimeout");
        assertThatThrownBy(() -> Runnel.builder().fetchSafetyPollInterval(Duration.ofDays(2)))
                .hasMessageContaining("fetchSafetyPollInterval must be between");
        assertThatThrownBy(() -> Runnel.builder().fetchSafetyPollInterval(Duration.ZERO))
                .hasMessageContaining("fetchSafetyPollInterval must be between");
        assertThatThrownBy(() -> Runnel.builder().worker(Ping.class, j -> {}).worker(Ping.class, j -> {}))
                .hasMessageContaining("twice");
    }

    @Test
    void executorsAreChecked() {
        assertThatThrownBy(() -> QueueExecutor.platformThreads(20)).hasMessageContaining("nice must be between 0");
        assertThatThrownBy(() -> QueueExecutor.platformThreads(-1)).hasMessageContaining("nice must be between 0");
        assertThatThrownBy(() -> Runnel.builder().queue("q", 1, (QueueExecutor) null))
                .hasMessage("executor must not be null");
        assertThatThrownBy(() -> Runnel.builder().queue("cpu", 1_001, QueueExecutor.platformThreads(5)))
                .hasMessageContaining("queue cpu runs on platform threads at nice 5")
                .hasMessageContaining("at most 1000");
        Runnel.builder().queue("io", 100_000, QueueExecutor.virtualThreads());
    }

    @Test
    void hooksMustNotBeNull() {
        assertThatThrownBy(() -> Runnel.builder().insertMiddleware(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("insertMiddleware must not be null");
        assertThatThrownBy(() -> Runnel.builder().workMiddleware(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("workMiddleware must not be null");
        assertThatThrownBy(() -> Runnel.builder().errorHandler(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("errorHandler must not be null");
    }

    @Test
    void decisionsAreChecked() {
        assertThatThrownBy(() -> ErrorHandler.Decision.retryAfter(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retry delay");
        assertThatThrownBy(() -> ErrorHandler.Decision.retryAfter(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ErrorHandler.Decision.discard(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reason");
        assertThat(ErrorHandler.Decision.useDefault()).isEqualTo(new ErrorHandler.UseDefault());
    }

    @Test
    void kindIsReadFromARecordWithoutAnInstance() {
        assertThat(dev.runnel.internal.Kinds.kindOf(Ping.class)).isEqualTo("ping");
    }

    /** Refuses a sample built with nulls, as records that validate their fields do. */
    @Kind("charge")
    record Charge(String account, long cents) implements JobArgs {
        Charge {
            if (account == null || account.isBlank()) {
                throw new IllegalArgumentException("account is required");
            }
        }
    }

    record Strict(String account) implements JobArgs {
        Strict {
            if (account == null) {
                throw new IllegalArgumentException("account is required");
            }
        }

        @Override
        public String kind() {
            return "strict";
        }
    }

    record Nameless(String account) implements JobArgs {}

    @Test
    void kindIsReadFromTheAnnotationOfARecordThatValidatesItsFields() {
        assertThat(dev.runnel.internal.Kinds.kindOf(Charge.class)).isEqualTo("charge");
        assertThat(new Charge("acme", 100).kind()).isEqualTo("charge");
        Runnel.builder().worker(Charge.class, job -> {});
    }

    @Test
    void aValidatingRecordWithoutTheAnnotationIsRefusedWithTheWayOut() {
        assertThatThrownBy(() -> Runnel.builder().worker(Strict.class, job -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Strict.class.getName())
                .hasMessageContaining("account is required")
                .hasMessageContaining("@Kind")
                .hasMessageContaining("worker(kind, type, worker)");
        Runnel.builder().worker("strict", Strict.class, job -> {});
    }

    @Test
    void aTypeThatNamesNoKindSaysHow() {
        assertThatThrownBy(() -> new Nameless("a").kind()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@Kind");
    }
}
