package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.cli.Cli.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runnel workflows} and {@code runnel batches} on a real SQLite file. */
class SqliteLinkCommandsTest extends LinkCommandsScenario {
    @TempDir
    Path dir;

    @Override
    protected String url() {
        return "sqlite://" + dir.resolve("w.db");
    }

    /** The help of {@code command}, its lines joined: picocli wraps descriptions at the terminal's width. */
    private static String help(String... command) {
        String[] args = java.util.Arrays.copyOf(command, command.length + 1);
        args[command.length] = "--help";
        Result r = Cli.run(args);
        assertThat(r.code()).isZero();
        return r.out().replaceAll("\\s+", " ");
    }

    @Test
    void helpSaysWhatEachCommandDoes() {
        assertThat(help("workflows")).contains("Usage: runnel workflows").contains("list").contains("get")
                .contains("cancel").contains("retry").contains("retry them from their failed tasks");
        assertThat(help("workflows", "get")).contains("--json").contains("--database-url")
                .contains("what it does when one of those fails");
        assertThat(help("workflows", "list")).contains("--limit").contains("--before")
                .contains("1 to 1000");
        assertThat(help("workflows", "cancel")).contains("a running one is told to stop");
        assertThat(help("batches")).contains("Usage: runnel batches").contains("callback");
        assertThat(help("batches", "get")).contains("--json");
        assertThat(help()).contains("workflows").contains("batches");
    }
}
