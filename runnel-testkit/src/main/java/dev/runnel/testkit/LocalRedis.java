package dev.runnel.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} for tests, on a free port of 127.0.0.1 in a temporary directory, with
 * AOF on and {@code maxmemory-policy noeviction}, as a Redis that keeps jobs should run.
 *
 * <p>{@link #shared()} is one server for the whole test JVM, stopped when the JVM exits; give each
 * test a namespace of its own with {@link #freshUrl()}. {@link #start(Fsync)} is a server of the
 * test's own, which it may {@link #kill()} (SIGKILL, as a crash) and {@link #restart()} on the same
 * port and directory, so that it comes back with what its AOF kept; {@link #close()} stops it.
 *
 * <pre>{@code
 * try (LocalRedis redis = LocalRedis.start(LocalRedis.Fsync.ALWAYS)) {
 *     Driver driver = Drivers.open(redis.freshUrl());
 *     // ...
 *     redis.kill();
 *     redis.restart(); // every acknowledged write is back
 * }
 * }</pre>
 *
 * <p>The binary is {@code RUNNEL_TEST_REDIS_SERVER}, else {@code redis-server} on the PATH, else
 * {@code /usr/bin/redis-server} (Debian's package). When none is found the start throws
 * {@link IllegalStateException}, so a test that needs Redis fails rather than being skipped.
 */
public final class LocalRedis implements AutoCloseable {
    /** The environment variable naming the {@code redis-server} binary to use. */
    public static final String BINARY_ENV = "RUNNEL_TEST_REDIS_SERVER";
    private static final long START_TIMEOUT_MILLIS = 20_000;
    private static LocalRedis shared;

    /** How the server's append-only file is flushed to disk. */
    public enum Fsync {
        /** After every write: an acknowledged write survives a kill of the server, or of its host. */
        ALWAYS("always"),
        /** Once a second, as production runs: a crash of the host may lose about the last second. */
        EVERYSEC("everysec");

        private final String setting;

        Fsync(String setting) {
            this.setting = setting;
        }
    }

    private final String binary;
    private final Path dir;
    private final int port;
    private final Fsync fsync;
    private Process process;
    private boolean closed;

    private LocalRedis(String binary, Path dir, int port, Fsync fsync) {
        this.binary = binary;
        this.dir = dir;
        this.port = port;
        this.fsync = fsync;
    }

    /** The test JVM's shared server ({@link Fsync#EVERYSEC}), started at the first call. */
    public static synchronized LocalRedis shared() {
        if (shared == null) {
            LocalRedis started = launch(Fsync.EVERYSEC);
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(started::close));
            shared = started;
        }
        return shared;
    }

    /** A server of the caller's own, which it may kill and restart; {@link #close()} stops it and deletes its files. */
    public static LocalRedis start(Fsync fsync) {
        return launch(fsync);
    }

    /** The port the server listens on, on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT/0?prefix=PREFIX}. */
    public String url(String prefix) {
        return "redis://127.0.0.1:" + port + "/0?prefix=" + prefix;
    }

    /** {@link #url(String)} of a new namespace of its own, with a random prefix. */
    public String freshUrl() {
        return url("t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    }

    /** The directory holding the server's AOF and its log. */
    public Path dir() {
        return dir;
    }

    /** Whether the server process is running. */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Kills the server with SIGKILL, as a crash would: no shutdown, no final save; only what its
     * AOF has on disk survives. Returns once the process is gone.
     */
    public synchronized void kill() {
        if (this == shared) {
            throw new IllegalStateException("the shared server is not a test's own to kill: use LocalRedis.start");
        }
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " did not die within 10 s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing redis-server", e);
        }
        process = null;
    }

    /**
     * Starts the server again on the same port and directory after {@link #kill()}, and returns
     * once it answers {@code PING}, its AOF loaded.
     */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("this server was closed");
        }
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " is running: kill it first");
        }
        try {
            spawn();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server (" + binary + ") again: " + e.getMessage(), e);
        }
        if (!awaitReady()) {
            throw new IllegalStateException("redis-server did not come back on port " + port + ": " + log());
        }
    }

    /** The server's log so far, to explain a failure. */
    public String log() {
        try {
            return Files.readString(dir.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static LocalRedis launch(Fsync fsync) {
        String binary = binary().orElseThrow(() -> new IllegalStateException("redis-server is not installed: the"
                + " Redis tests need it (apt-get install redis-server, as .ci/run does, or set " + BINARY_ENV
                + " to its path)"));
        IllegalStateException failure = null;
        // A free port may be taken between our probe and the server's bind: then try another.
        for (int attempt = 0; attempt < 3; attempt++) {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("runnel-redis");
                LocalRedis server = new LocalRedis(binary, dir, freePort(), fsync);
                server.spawn();
                if (server.awaitReady()) {
                    return server;
                }
                failure = new IllegalStateException("redis-server (" + binary + ") did not start listening on port "
                        + server.port + ": " + server.log());
                server.close();
            } catch (IOException e) {
                failure = new IllegalStateException("cannot start redis-server (" + binary + "): " + e.getMessage(), e);
                deleteQuietly(dir);
            }
        }
        throw failure;
    }

    private void spawn() throws IOException {
        List<String> command = new ArrayList<>(List.of(binary, "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--dir", dir.toString(), "--appendonly", "yes",
                "--appendfsync", fsync.setting, "--save", "", "--maxmemory-policy", "noeviction",
                "--daemonize", "no", "--protected-mode", "yes"));
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile())).start();
    }

    private static Optional<String> binary() {
        String configured = System.getenv(BINARY_ENV);
        if (configured != null && !configured.isBlank()) {
            return Optional.of(configured);
        }
        Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .filter(p -> !p.isEmpty()).map(p -> Path.of(p, "redis-server"));
        return Stream.concat(onPath, Stream.of(Path.of("/usr/bin/redis-server")))
                .filter(Files::isExecutable).findFirst().map(Path::toString);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Waits until the server answers PING with PONG: listening, and done loading its AOF. */
    private boolean awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() - deadline < 0 && process.isAlive()) {
            if (answersPing()) {
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private boolean answersPing() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(1_000);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] reply = new byte[64];
            int n = in.read(reply);
            // While loading, the server answers "-LOADING ...".
            return n > 0 && new String(reply, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the server and deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
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

    @Override
    public String toString() {
        return "redis-server on 127.0.0.1:" + port + " (appendfsync " + fsync.setting + ")";
    }
}
