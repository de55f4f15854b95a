package dev.runnel.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PgBouncer in transaction mode in front of the test database, started once per test JVM on
 * a free port, from an ini file generated in a temporary directory, and stopped when the JVM exits.
 * The binary is {@code RUNNEL_TEST_PGBOUNCER}, else {@code pgbouncer} on the PATH, else
 * {@code /usr/sbin/pgbouncer} (Debian's package). As with Postgres, a missing PgBouncer fails the
 * tests that need it; they are not skipped ({@code .ci/run} installs it).
 *
 * <p>Clients log in as anyone ({@code auth_type = any}): the database entry names the test URL's
 * user and password. {@code extra_float_digits} is in {@code ignore_startup_parameters}, as every
 * PgBouncer in front of pgjdbc needs: pgjdbc sends it in every startup packet. Few server
 * connections, closed after a few idle seconds: the test database is shared with other builds,
 * under Postgres' default {@code max_connections} of 100.
 */
final class PgBouncer {
    private static final String BINARY_ENV = "RUNNEL_TEST_PGBOUNCER";
    private static final long START_TIMEOUT_MILLIS = 10_000;
    private static PgBouncer instance;

    private final Process process;
    private final Path dir;
    private final int port;

    private PgBouncer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** The shared PgBouncer, started at the first call. */
    static synchronized PgBouncer get() {
        if (instance == null) {
            instance = start();
            PgBouncer started = instance;
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(started::stop));
        }
        return instance;
    }

    /**
     * {@code postgres://user@127.0.0.1:port/test?pgbouncer=transaction}, plus a {@code listen_url}
     * of the test database itself when {@code listen}, and {@code extra} (already encoded
     * parameters, each preceded by {@code &}).
     */
    String url(boolean listen, String extra) {
        PostgresUrl direct = PostgresUrl.parse(PostgresTestSchema.URL);
        String url = "postgres://" + enc(direct.user()) + "@127.0.0.1:" + port + "/" + enc(direct.database())
                + "?pgbouncer=transaction";
        if (listen) {
            url += "&listen_url=" + URLEncoder.encode(PostgresTestSchema.URL, StandardCharsets.UTF_8);
        }
        return url + extra;
    }

    /** A driver on {@code schema} through PgBouncer: polling, or listening on the direct URL. */
    PostgresDriver driver(String schema, boolean listen) {
        return PostgresDriver.builder().url(url(listen, "")).schema(schema).maxPoolSize(4).build();
    }

    /**
     * An application's connection through PgBouncer, set up as one must be there: no named
     * prepared statements, no session state.
     */
    Connection connection() throws SQLException {
        PostgresUrl url = PostgresUrl.parse(url(false, ""));
        return DriverManager.getConnection(url.jdbcUrl(), url.connectionProperties("runnel-pgbouncer-test", 5));
    }

    /** The PgBouncer log so far, to explain a failure. */
    String log() {
        try {
            return Files.readString(dir.resolve("pgbouncer.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static PgBouncer start() {
        String binary = binary().orElseThrow(() -> new IllegalStateException("PgBouncer is not installed: the"
                + " PgBouncer tests need it (apt-get install pgbouncer, as .ci/run does, or set " + BINARY_ENV
                + " to its path)"));
        PostgresUrl db = PostgresUrl.parse(PostgresTestSchema.URL);
        IllegalStateException failure = null;
        // A free port may be taken between our probe and PgBouncer's bind: then try another.
        for (int attempt = 0; attempt < 3; attempt++) {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("runnel-pgbouncer");
                int port = freePort();
                Path ini = writeIni(dir, db, port);
                Process process = launch(binary, dir, ini);
                PgBouncer bouncer = new PgBouncer(process, dir, port);
                if (bouncer.awaitListening()) {
                    return bouncer;
                }
                failure = new IllegalStateException("PgBouncer (" + binary + ") did not start listening on port " + port
                        + ": " + bouncer.log());
                bouncer.stop();
            } catch (IOException e) {
                failure = new IllegalStateException("cannot start PgBouncer (" + binary + "): " + e.getMessage(), e);
                deleteQuietly(dir);
            }
        }
        throw failure;
    }

    private static Optional<String> binary() {
        String configured = System.getenv(BINARY_ENV);
        if (configured != null && !configured.isBlank()) {
            return Optional.of(configured);
        }
        Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .filter(p -> !p.isEmpty()).map(p -> Path.of(p, "pgbouncer"));
        return Stream.concat(onPath, Stream.of(Path.of("/usr/sbin/pgbouncer")))
                .filter(Files::isExecutable).findFirst().map(Path::toString);
    }

    private static Path writeIni(Path dir, PostgresUrl db, int port) throws IOException {
        String password = db.password() == null ? "" : " password=" + db.password();
        String ini = """
                [databases]
                %s = host=%s port=%d dbname=%s user=%s%s

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %d
                unix_socket_dir =
                auth_type = any
                pool_mode = transaction
                ignore_startup_parameters = extra_float_digits
                max_client_conn = 1000
                default_pool_size = 8
                server_idle_timeout = 5
                """.formatted(db.database(), db.host(), db.port(), db.database(), db.user(), password, port);
        Path file = dir.resolve("pgbouncer.ini");
        Files.writeString(file, ini);
        // PgBouncer refuses to run as root; as another user it must still read its ini.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    private static Process launch(String binary, Path dir, Path ini) throws IOException {
        ProcessBuilder builder = System.getProperty("user.name").equals("root")
                ? new ProcessBuilder(binary, "-u", "nobody", ini.toString())
                : new ProcessBuilder(binary, ini.toString());
        // The log goes to a file this JVM opened: PgBouncer need not be able to write there itself.
        return builder.redirectErrorStream(true).redirectOutput(dir.resolve("pgbouncer.log").toFile()).start();
    }

    /** A free port of the loopback interface (free when asked: bind soon, and retry when taken). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private boolean awaitListening() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() - deadline < 0 && process.isAlive()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return true;
            } catch (IOException e) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
        }
        deleteQuietly(dir);
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temp dir left behind
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return "PgBouncer on 127.0.0.1:" + port;
    }
}
