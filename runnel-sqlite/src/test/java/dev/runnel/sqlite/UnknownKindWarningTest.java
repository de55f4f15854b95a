package dev.runnel.sqlite;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.Runnel;
import dev.runnel.testkit.EventRecorder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job whose kind no worker handles is not only recorded on its row: the client warns, once per
 * kind, so that a deployment missing a worker shows in the log. (slf4j-simple, the tests' logger,
 * writes to whatever {@code System.err} is at the time.)
 */
class UnknownKindWarningTest {
    record Known(int n) implements JobArgs {
        @Override
        public String kind() {
            return "known";
        }
    }

    record Orphan(int n) implements JobArgs {
        @Override
        public String kind() {
            return "orphan_kind";
        }
    }

    @Test
    void aKindWithoutAWorkerIsWarnedOfOncePerClient(@TempDir Path dir) {
        EventRecorder events = new EventRecorder();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (Runnel runnel = Runnel.builder().driver(SqliteDriver.open(dir.resolve("jobs.db"))).autoMigrate(true)
                .queue("default", 5).listener(events).worker(Known.class, job -> {}).build()) {
            runnel.start();
            long[] ids = InsertResult.ids(runnel.insertMany(List.of(InsertRequest.of(new Orphan(1)), InsertRequest.of(new Orphan(2)),
                    InsertRequest.of(new Orphan(3)))));
            for (long id : ids) {
                assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.FAILED);
            }
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertThat(log.split("no worker is registered for kind 'orphan_kind'", -1)).hasSize(2);
        assertThat(log).contains("WARN");
    }
}
