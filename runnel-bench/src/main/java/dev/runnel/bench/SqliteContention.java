package dev.runnel.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.Migrator;
import dev.runnel.RunnelException;
import dev.runnel.driver.SqlFile;
import dev.runnel.sqlite.SqliteBusyWait;
import dev.runnel.sqlite.SqliteDriver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The SQLite lock-wait scenario ({@code runnel scenario sqlite-contention}): several processes times threads doing short
 * write transactions on one SQLite file while this process runs slow write transactions that hold
 * the write lock about a second each; once with SQLite's native busy handler and once with
 * Runnel's fair wait, each on a fresh file. Reports the fast writes' latency percentiles, the
 * fastest and slowest connection, and the errors ("database is locked") of each.
 */
public final class SqliteContention {
    /** The fair wait's target: its slowest write at most the slow transaction plus this. */
    public static final Duration TARGET_MARGIN = Duration.ofMillis(100);

    /**
     * What to run.
     *
     * @param processes writer processes (JVMs of their own)
     * @param threads writer threads in each
     * @param duration how long the writers write, per busy wait
     * @param slow how long each slow transaction holds the write lock
     * @param slowGap the pause between two slow transactions, when the fast writes run freely
     * @param pause the pause between one thread's writes
     * @param busyTimeout how long a write waits for the lock before it fails
     * @param waits the busy waits to compare, in order
     */
    public record Options(int processes, int threads, Duration duration, Duration slow, Duration slowGap, Duration pause,
            Duration busyTimeout, List<SqliteBusyWait> waits) {
        public Options {
            waits = List.copyOf(waits);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Options options;
    private final PrintWriter progress;

    public SqliteContention(Options options, PrintWriter progress) {
        this.options = options;
        this.progress = progress;
    }

    public SqliteContentionResult run() throws IOException, InterruptedException {
        List<SqliteContentionResult.Wait> results = new ArrayList<>();
        for (SqliteBusyWait wait : options.waits()) {
            Path dir = Files.createTempDirectory("runnel-contention");
            try {
                results.add(runOne(wait, dir.resolve("contention.db")));
            } finally {
                deleteTree(dir);
            }
        }
        return new SqliteContentionResult(options, results);
    }

    private SqliteContentionResult.Wait runOne(SqliteBusyWait wait, Path file) throws IOException, InterruptedException {
        SqlFile<ContentionSql> sql = SqlFile.parse("contention.sql", ContentionSql.class.getResourceAsStream("contention.sql"),
                ContentionSql.class);
        try (SqliteDriver driver = SqliteDriver.open(file)) {
            new Migrator(driver).up();
        }
        progress.printf("sqlite-contention: %s: starting %d processes x %d threads%n", wait.urlName(),
                options.processes(), options.threads());
        progress.flush();
        List<Process> children = new ArrayList<>();
        try (Connection slow = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (Statement st = slow.createStatement()) {
                st.execute(sql.get(ContentionSql.NoBusyTimeout).text());
                st.execute(sql.get(ContentionSql.SlowTable).text());
            }
            try (Statement st = slow.createStatement(); PreparedStatement write = slow.prepareStatement(sql.get(ContentionSql.SlowWrite).text())) {
                st.execute("BEGIN IMMEDIATE"); // once untimed, so that the first timed one is not the first run
                sql.get(ContentionSql.SlowWrite).setLong(write, ContentionSql.P.BEGAN_AT, System.currentTimeMillis());
                write.executeUpdate();
                st.execute("COMMIT");
            }
            List<BufferedReader> outputs = new ArrayList<>();
            for (int i = 0; i < options.processes(); i++) {
                Process child = new ProcessBuilder(command(wait, file)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
                children.add(child);
                outputs.add(child.inputReader(StandardCharsets.UTF_8));
            }
            for (BufferedReader out : outputs) {
                expect(out, "ready");
            }
            for (Process child : children) {
                child.outputWriter(StandardCharsets.UTF_8).append("go\n").flush();
            }
            long end = System.nanoTime() + options.duration().toNanos();
            List<Long> slowMillis = runSlow(slow, sql, end);
            List<SqliteContentionResult.Connection> connections = new ArrayList<>();
            String firstError = "";
            for (BufferedReader out : outputs) {
                expect(out, "result");
                JsonNode result = JSON.readTree(out.readLine());
                for (JsonNode c : result.get("connections")) {
                    long[] latencies = new long[c.get("latencies_us").size()];
                    for (int j = 0; j < latencies.length; j++) {
                        latencies[j] = c.get("latencies_us").get(j).asLong();
                    }
                    connections.add(new SqliteContentionResult.Connection(latencies, c.get("errors").asLong()));
                    if (firstError.isEmpty()) {
                        firstError = c.get("first_error").asText();
                    }
                }
            }
            return SqliteContentionResult.Wait.of(wait, connections, slowMillis, firstError);
        } catch (SQLException e) {
            throw new RunnelException("the slow writer failed: " + e.getMessage(), e);
        } finally {
            for (Process child : children) {
                if (!child.waitFor(30, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                }
            }
        }
    }

    /**
     * Slow transactions, one after another with a pause between, until {@code end}: each begins
     * (retrying at 1 ms while the fast writers hold the lock), writes a row, and holds the lock.
     * Returns each one's time holding the lock, from its BEGIN to its COMMIT: on a busy machine
     * the sleep inside overshoots, and the fast writes behind it wait that long, not the nominal time.
     */
    private List<Long> runSlow(Connection slow, SqlFile<ContentionSql> sql, long end) throws SQLException, InterruptedException {
        List<Long> millis = new ArrayList<>();
        Thread.sleep(Math.min(200, options.slowGap().toMillis())); // the writers get a 200 ms head start
        try (Statement st = slow.createStatement(); PreparedStatement write = slow.prepareStatement(sql.get(ContentionSql.SlowWrite).text())) {
            while (System.nanoTime() - end < 0) {
                while (true) {
                    try {
                        st.execute("BEGIN IMMEDIATE");
                        break;
                    } catch (SQLException busy) {
                        Thread.sleep(1);
                    }
                }
                long start = System.nanoTime();
                sql.get(ContentionSql.SlowWrite).setLong(write, ContentionSql.P.BEGAN_AT, System.currentTimeMillis());
                write.executeUpdate();
                Thread.sleep(options.slow().toMillis());
                st.execute("COMMIT");
                millis.add((System.nanoTime() - start) / 1_000_000);
                progress.printf("sqlite-contention: slow transaction %d held the lock, %d ms%n", millis.size(), millis.getLast());
                progress.flush();
                long rest = Math.min(options.slowGap().toNanos(), end - System.nanoTime());
                if (rest > 0) {
                    TimeUnit.NANOSECONDS.sleep(rest);
                }
            }
        }
        return millis;
    }

    private List<String> command(SqliteBusyWait wait, Path file) {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                SqliteContentionWriter.class.getName(),
                file.toString(), wait.name(), String.valueOf(options.busyTimeout().toMillis()),
                String.valueOf(options.threads()), String.valueOf(options.duration().toMillis()),
                String.valueOf(options.pause().toMillis()));
    }

    private static void expect(BufferedReader out, String line) throws IOException {
        String got;
        while ((got = out.readLine()) != null && !got.equals(line)) {
            // a child's log line
        }
        if (got == null) {
            throw new RunnelException("a writer process exited before it said '" + line + "' (its errors are above)");
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
