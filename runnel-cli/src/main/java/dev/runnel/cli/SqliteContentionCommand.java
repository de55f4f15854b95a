package dev.runnel.cli;

import dev.runnel.bench.SqliteContention;
import dev.runnel.bench.SqliteContentionResult;
import dev.runnel.sqlite.SqliteBusyWait;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code runnel scenario sqlite-contention}: SQLite lock waits, SQLite's native busy
 * handler against Runnel's fair wait, on a throwaway file.
 */
@Command(name = "sqlite-contention", mixinStandardHelpOptions = true,
        description = "Several processes x threads write short transactions (one job insert each) to one SQLite file"
                + " while this process runs slow write transactions that hold the lock; once with SQLite's native busy"
                + " handler, once with Runnel's fair wait, each on a fresh temporary file. Reports p50/p95/p99/p99.99"
                + " latency, the fastest and slowest connection (time spent in writes) and errors. Exits 0 when the fair"
                + " wait had no errors and p99.99 within the slow transaction plus 100 ms.")
final class SqliteContentionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--processes", paramLabel = "P", defaultValue = "4",
            description = "Writer processes (default: ${DEFAULT-VALUE}).")
    int processes;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "2",
            description = "Writer threads per process (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class, defaultValue = "10s",
            description = "How long the writers write, per busy wait, 1s to 10m (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--slow", paramLabel = "D", converter = DurationConverter.class, defaultValue = "1s",
            description = "How long each slow transaction holds the write lock, 10ms to 1m (default: ${DEFAULT-VALUE}).")
    Duration slow;

    @Option(names = "--slow-gap", paramLabel = "D", converter = DurationConverter.class, defaultValue = "1s",
            description = "Pause between slow transactions, 0 to 1m (default: ${DEFAULT-VALUE}).")
    Duration slowGap;

    @Option(names = "--pause", paramLabel = "D", converter = DurationConverter.class, defaultValue = "10ms",
            description = "Pause between one thread's writes, 0 to 10s (default: ${DEFAULT-VALUE}).")
    Duration pause;

    @Option(names = "--busy-timeout", paramLabel = "D", converter = DurationConverter.class, defaultValue = "5s",
            description = "How long a write waits for the lock before it fails, 0 to 1h (default: ${DEFAULT-VALUE}).")
    Duration busyTimeout;

    @Option(names = "--wait", paramLabel = "W", split = ",", defaultValue = "native,fair",
            description = "Busy waits to compare, in order: native, fair (default: ${DEFAULT-VALUE}).")
    List<String> waits;

    @Option(names = "--json", description = "Print the figures as one JSON line, last.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Flags.between("--processes", processes, 1, 64);
        Flags.between("--threads", threads, 1, 256);
        within("--duration", duration, Duration.ofSeconds(1), Duration.ofMinutes(10));
        within("--slow", slow, Duration.ofMillis(10), Duration.ofMinutes(1));
        within("--slow-gap", slowGap, Duration.ZERO, Duration.ofMinutes(1));
        within("--pause", pause, Duration.ZERO, Duration.ofSeconds(10));
        within("--busy-timeout", busyTimeout, Duration.ZERO, Duration.ofHours(1));
        List<SqliteBusyWait> chosen = waits.stream().map(SqliteContentionCommand::busyWait).toList();
        PrintWriter out = spec.commandLine().getOut();
        SqliteContentionResult result = new SqliteContention(new SqliteContention.Options(processes, threads, duration,
                slow, slowGap, pause, busyTimeout, chosen), out).run();
        result.printTable(out);
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return result.passed() ? 0 : Main.EXIT_FAILURE;
    }

    private static SqliteBusyWait busyWait(String name) {
        for (SqliteBusyWait w : SqliteBusyWait.values()) {
            if (w.urlName().equals(name.strip())) {
                return w;
            }
        }
        throw new IllegalArgumentException("--wait takes native and/or fair, was '" + name + "'");
    }

    private static void within(String flag, Duration value, Duration min, Duration max) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(flag + " must be between " + DurationConverter.format(min) + " and "
                    + DurationConverter.format(max) + ", was " + DurationConverter.format(value));
        }
    }
}
