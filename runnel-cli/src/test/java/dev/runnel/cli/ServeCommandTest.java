package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runnel serve}'s bad flags: one line, exit 2, and no database touched. */
class ServeCommandTest {
    @TempDir
    Path dir;

    private int run(StringWriter err, String... args) {
        return Main.run(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    }

    @Test
    void badFlagsExitTwoWithOneLineBeforeOpeningTheDatabase() {
        String url = "sqlite://" + dir.resolve("d.db");
        for (String[] args : new String[][] {
                {"serve", "--database-url", url, "--port", "70000"},
                {"serve", "--database-url", url, "--user", "nopassword"},
                {"serve", "--database-url", url, "--read-only-user", "viewer:"},
                {"serve", "--database-url", url, "--bind", "no.such.host.invalid"}}) {
            StringWriter err = new StringWriter();
            assertThat(run(err, args)).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString().lines().filter(l -> !l.isBlank()).count()).as(err.toString()).isEqualTo(1);
        }
        assertThat(Files.exists(dir.resolve("d.db"))).isFalse();
    }
}
