package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Batch;
import dev.runnel.BatchResult;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.Workflow;
import dev.runnel.WorkflowResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker process SIGKILLed right after the completion of a workflow task, a batch's last job
 * and a sequence's job was stored, before it could do anything else: what they released is
 * released all the same, because the release is part of the completion's write.
 */
class SqliteLinkKillTest {
    record Step(String name) implements JobArgs {
        @Override
        public String kind() {
            return "step";
        }
    }

    @TempDir
    Path dir;

    /** The worker process: works {@code step} jobs, then hangs in the listener once their outcomes are stored. */
    public static void main(String[] args) {
        SqliteDriver driver = SqliteDriver.open(Path.of(args[0]));
        Runnel runnel = Runnel.builder().driver(driver).queue("default", 5)
                .completerFlushInterval(Duration.ofMillis(50))
                .worker(Step.class, job -> {})
                .listener(event -> {
                    if (event.type() == JobEvent.Type.COMPLETED) {
                        ChildJvm.say("stored " + event.job().id());
                        LockSupport.park(); // the completer's thread: nothing more is written
                    }
                })
                .build();
        runnel.start();
        ChildJvm.say("started");
        LockSupport.park();
    }

    @Test
    void whatACompletionReleasesSurvivesAKillRightAfterIt() throws Exception {
        Path db = dir.resolve("jobs.db");
        try (SqliteDriver driver = SqliteDriver.open(db)) {
            new Migrator(driver).up();
        }
        Runnel inserter = Runnel.builder().driver(SqliteDriver.open(db)).build();
        // Only the three first jobs are available: one worker flush stores all three completions.
        WorkflowResult wf = inserter.workflows().insert(Workflow.builder("kill")
                .task("a", new Step("a")).task("b", new Step("b"), "a").build());
        BatchResult batch = inserter.batches().insert(Batch.builder().onSuccess(new Step("callback"),
                InsertOptions.builder().queue("callbacks").build()).build(), List.of(InsertRequest.of(new Step("only"))));
        long first = inserter.insert(new Step("first"), InsertOptions.builder().sequence("k").build()).id();
        long second = inserter.insert(new Step("second"), InsertOptions.builder().sequence("k").build()).id();

        try (ChildJvm worker = new ChildJvm(SqliteLinkKillTest.class, db.toString())) {
            worker.expect("started", 30_000);
            worker.expect("stored", 30_000);
            worker.close(); // SIGKILL
            assertThat(worker.awaitExit(10_000)).isTrue();
        }

        // Whichever of the three completions the flush held, each stored one released its dependent
        // (which the worker may have claimed since: running is released too, and the rescuer's).
        boolean aDone = inserter.jobGet(wf.task("a")).orElseThrow().state() == JobState.COMPLETED;
        boolean onlyDone = inserter.jobGet(batch.jobs().getFirst().id()).orElseThrow().state() == JobState.COMPLETED;
        boolean firstDone = inserter.jobGet(first).orElseThrow().state() == JobState.COMPLETED;
        assertThat(aDone || onlyDone || firstDone).isTrue();
        if (aDone) {
            assertThat(inserter.jobGet(wf.task("b")).orElseThrow().state()).isIn(JobState.AVAILABLE, JobState.RUNNING);
        }
        if (onlyDone) {
            assertThat(inserter.batches().get(batch.id()).orElseThrow().successJob()).isPresent();
        }
        if (firstDone) {
            assertThat(inserter.jobGet(second).orElseThrow().state()).isIn(JobState.AVAILABLE, JobState.RUNNING);
        }
        inserter.close();
    }
}
