package dev.runnel.bench;

import dev.runnel.driver.SqlFile;
import dev.runnel.postgres.PostgresDriver;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One row's workload, set up before the timed run and checked after it: what each job does
 * ({@link #body()}), and whether the work it was to leave behind is all there ({@link #check}).
 */
final class TableWork implements AutoCloseable {
    private static final SqlFile<ScenarioSql> SQL = SqlFile.parse("scenario.sql", ScenarioSql.class.getResourceAsStream("scenario.sql"),
            ScenarioSql.class);
    /** fib(25), the reference run's CPU-bound job. */
    static final int FIB_N = 25;

    private final BenchJobs.Body body;
    private final AutoCloseable resource;
    private final Path file;

    private TableWork(BenchJobs.Body body, AutoCloseable resource, Path file) {
        this.body = body;
        this.resource = resource;
        this.file = file;
    }

    /**
     * Sets up {@code workload} for {@code concurrency} jobs at once: an HTTP client of the server,
     * a pool of {@code concurrency} Postgres connections (opened here, outside the timing, as the
     * reference run's pool was), or the file to append to in {@code dir}.
     */
    static TableWork open(TableWorkload workload, int concurrency, Path dir, SleepServerHolder http, String postgresUrl)
            throws IOException {
        return switch (workload) {
            case NOOP, IDLE -> new TableWork(null, null, null);
            case CPU -> new TableWork(n -> fib(FIB_N), null, null);
            case FILE -> {
                Path f = dir.resolve("lines-" + System.nanoTime() + ".txt");
                yield new TableWork(n -> Files.writeString(f, n + "\n", StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND), null, f);
            }
            case HTTP -> {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5)).build();
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.get().port() + "/hello"))
                        .timeout(Duration.ofSeconds(30)).build();
                yield new TableWork(n -> {
                    HttpResponse<Void> r = client.send(request, HttpResponse.BodyHandlers.discarding());
                    if (r.statusCode() != 200) {
                        throw new IOException("request error: HTTP " + r.statusCode());
                    }
                }, client, null);
            }
            case PG_SLEEP -> {
                PostgresDriver pool = PostgresDriver.builder().url(postgresUrl).maxPoolSize(concurrency).build();
                try {
                    warm(pool, concurrency);
                } catch (SQLException | RuntimeException e) {
                    pool.close();
                    throw new IOException("Postgres at " + dev.runnel.Drivers.redact(postgresUrl) + " could not lend " + concurrency
                            + " connections: " + e.getMessage(), e);
                }
                String sleep = SQL.get(ScenarioSql.PgSleep).text();
                yield new TableWork(n -> {
                    try (Connection c = pool.dataSource().getConnection(); Statement st = c.createStatement()) {
                        st.execute(sleep);
                    }
                }, pool, null);
            }
        };
    }

    /**
     * Opens every connection of the pool now and runs a statement on each, so that the timed run
     * pays neither for connecting nor for a new server process's first statement: at 100 at once,
     * 100 fresh connections' first sleeps took 0.08 to 0.12 s longer than on connections that had
     * run one statement (1,000 sleeps of 100 ms, 1.16 to 1.23 s against 1.08 to 1.15 s).
     */
    private static void warm(PostgresDriver pool, int concurrency) throws SQLException {
        List<Connection> held = new ArrayList<>();
        String warm = SQL.get(ScenarioSql.PgWarm).text();
        try {
            for (int i = 0; i < concurrency; i++) {
                Connection c = pool.dataSource().getConnection();
                held.add(c);
                try (Statement st = c.createStatement()) {
                    st.execute(warm);
                }
            }
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    /** What each job does; null for a no-op. */
    BenchJobs.Body body() {
        return body;
    }

    /** What is wrong with the work left behind, if anything: the file must hold one line per job. */
    Optional<String> check(long jobs) throws IOException {
        if (file == null) {
            return Optional.empty();
        }
        long lines;
        try (var stream = Files.lines(file)) {
            lines = stream.count();
        }
        return lines == jobs ? Optional.empty() : Optional.of("the file holds " + lines + " lines, not " + jobs);
    }

    static long fib(int n) {
        return n <= 1 ? 1 : fib(n - 1) + fib(n - 2);
    }

    @Override
    public void close() throws Exception {
        if (resource != null) {
            resource.close();
        }
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    /** The HTTP server, started on first use and shared by every HTTP row of a table. */
    static final class SleepServerHolder implements AutoCloseable {
        private SleepServer server;

        synchronized SleepServer get() throws IOException {
            if (server == null) {
                server = SleepServer.start();
            }
            return server;
        }

        @Override
        public synchronized void close() {
            if (server != null) {
                server.close();
                try {
                    server.awaitExit(TimeUnit.SECONDS.toMillis(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
