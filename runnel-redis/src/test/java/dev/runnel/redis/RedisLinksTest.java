package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Batch;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.Workflow;
import dev.runnel.testkit.LocalRedis;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Redis store keeps no workflows, batches or sequences: it says so by capability, a write
 * that needs them is refused at once with the way out, nothing is written, and reads answer empty.
 */
class RedisLinksTest {
    record Step(String name) implements JobArgs {
        @Override
        public String kind() {
            return "step";
        }
    }

    @Test
    void linkedInsertsAreRefusedAndNothingIsWritten() {
        RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl());
        new Migrator(driver).up();
        try (Runnel runnel = Runnel.builder().driver(driver).build()) {
            assertThat(driver.supportsLinks()).isFalse();
            assertThatThrownBy(() -> runnel.workflows().insert(Workflow.builder("w").task("a", new Step("a")).build()))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("redis").hasMessageContaining("SQLite or Postgres");
            assertThatThrownBy(() -> runnel.batches().insert(Batch.builder().build(), List.of(InsertRequest.of(new Step("b")))))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> runnel.insert(new Step("c"), InsertOptions.builder().sequence("k").build()))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThat(runnel.jobCounts()).isEmpty();
            assertThat(runnel.workflows().list(10)).isEmpty();
            assertThat(runnel.workflows().get(1)).isEmpty();
            assertThat(runnel.batches().list(10)).isEmpty();
            assertThat(runnel.jobs().links(1)).isEmpty();
        }
    }
}
