package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The command line run in this JVM, as {@code runnel ARGS} would run it, its streams captured. */
final class Cli {
    /** What a run gave: its exit code and what it printed to each stream. */
    record Result(int code, String out, String err) {}

    private Cli() {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    /** {@code args} followed by {@code --database-url url}. */
    static Result runOn(String url, String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--database-url";
        all[args.length + 1] = url;
        return run(all);
    }

    /** The last line of {@code r}'s output that is a JSON object: a command's {@code --json} result. */
    static String lastJson(Result r) {
        return r.out().lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow();
    }

    /** Bad input: exit 2, one line on stderr that mentions {@code mentions}, no stack trace, nothing on stdout. */
    static void exitsTwoWithOneLine(Result r, String mentions) {
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err().lines().filter(l -> !l.isBlank()).count()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains(mentions).doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
    }
}
