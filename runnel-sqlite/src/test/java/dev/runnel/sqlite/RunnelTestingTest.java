package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobCancel;
import dev.runnel.JobDiscard;
import dev.runnel.JobSnooze;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.testkit.InlineResult;
import dev.runnel.testkit.RunnelTesting;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The helpers users test their own workers and inserts with. */
class RunnelTestingTest {
    record Mail(String to, int mode) implements JobArgs {
        @Override
        public String kind() {
            return "mail";
        }
    }

    @Test
    void workInlineReportsEachOutcome() {
        assertThat(RunnelTesting.work(job -> assertThat(job.args().to()).isEqualTo("a@x"), new Mail("a@x", 0)))
                .isEqualTo(new InlineResult.Completed());
        assertThat(RunnelTesting.<Mail>work(job -> {
            throw new JobSnooze(Duration.ofMinutes(1));
        }, new Mail("a", 1))).isEqualTo(new InlineResult.Snoozed(Duration.ofMinutes(1)));
        assertThat(RunnelTesting.<Mail>work(job -> {
            throw new JobCancel("no");
        }, new Mail("a", 2))).isEqualTo(new InlineResult.Cancelled("no"));
        assertThat(RunnelTesting.<Mail>work(job -> {
            throw new JobDiscard("bad");
        }, new Mail("a", 3))).isEqualTo(new InlineResult.Discarded("bad"));
        InlineResult failed = RunnelTesting.<Mail>work(job -> {
            throw new IllegalStateException("smtp down");
        }, new Mail("a", 4), 3);
        assertThat(failed).isInstanceOfSatisfying(InlineResult.Failed.class,
                f -> assertThat(f.error()).hasMessage("smtp down"));
        assertThat(RunnelTesting.<Mail>work(job -> assertThat(job.attempt()).isEqualTo(3), new Mail("a", 5), 3))
                .isEqualTo(new InlineResult.Completed());
    }

    @Test
    void workInlineKeepsTheOutput() {
        assertThat(RunnelTesting.<Mail>work(job -> job.recordOutput(java.util.Map.of("sent", 1)), new Mail("a", 0)))
                .isEqualTo(new InlineResult.Completed(java.util.Optional.of("{\"sent\":1}")));
        assertThat(RunnelTesting.<Mail>work(job -> job.recordOutput("x".repeat(dev.runnel.Job.MAX_OUTPUT_BYTES)),
                new Mail("a", 0))).isInstanceOfSatisfying(InlineResult.Failed.class, f ->
                assertThat(f.error()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed"));
    }

    @Test
    void assertInsertedFindsWaitingJobsOrFails(@TempDir Path dir) {
        try (SqliteDriver driver = SqliteDriver.open(dir.resolve("t.db"))) {
            new Migrator(driver).up();
            Runnel runnel = Runnel.builder().driver(driver).build();
            assertThatThrownBy(() -> RunnelTesting.assertInserted(runnel, "mail"))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("mail");
            runnel.insert(new Mail("b@x", 0));
            runnel.insert(new Mail("c@x", 0), InsertOptions.builder().scheduledAt(Instant.now().plusSeconds(60)).build());
            assertThat(RunnelTesting.assertInserted(runnel, "mail")).hasSize(2)
                    .allSatisfy(job -> assertThat(job.args()).contains("@x"));
        }
    }
}
