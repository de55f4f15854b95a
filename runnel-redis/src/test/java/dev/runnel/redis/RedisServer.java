package dev.runnel.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} for the tests, started once per test JVM on a free loopback port in
 * a temporary directory, with AOF on ({@code appendfsync everysec}, as production should run) and
 * {@code maxmemory-policy noeviction}, and stopped when the JVM exits. The binary is
 * {@code RUNNEL_TEST_REDIS_SERVER}, else {@code redis-server} on the PATH, else
 * {@code /usr/bin/redis-server} (Debian's package). A missing server fails the tests that need it;
 * they are not skipped ({@code .ci/run} installs it).
 */
public final class RedisServer {
    private static final String BINARY_ENV = "RUNNEL_TEST_REDIS_SERVER";
    private static final long START_TIMEOUT_MILLIS = 10_000;
    private static RedisServer instance;

    private final Process process;
    private final Path dir;
    private final int port;

    private RedisServer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** The shared server, started at the first call. */
    public static synchronized RedisServer get() {
        if (instance == null) {
            instance = start();
            RedisServer started = instance;
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(started::stop));
        }
        return instance;
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT/0?prefix=...} of a new namespace of its own. */
    public String freshUrl() {
        return url("t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    }

    String url(String prefix) {
        return "redis://127.0.0.1:" + port + "/0?prefix=" + prefix;
    }

    /** A driver on a new namespace of its own. */
    RedisDriver driver() {
        return RedisDriver.open(freshUrl());
    }

    /** The server's log so far, to explain a failure. */
    String log() {
        try {
            return Files.readString(dir.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static RedisServer start() {
        String binary = binary().orElseThrow(() -> new IllegalStateException("redis-server is not installed: the"
                + " Redis tests need it (apt-get install redis-server, as .ci/run does, or set " + BINARY_ENV
                + " to its path)"));
        IllegalStateException failure = null;
        // A free port may be taken between our probe and the server's bind: then try another.
        for (int attempt = 0; attempt < 3; attempt++) {
            Path dir = null;
            try {
                dir = Files.createTempDirectory("runnel-redis");
                int port = freePort();
                Process process = new ProcessBuilder(List.of(binary, "--port", Integer.toString(port),
                        "--bind", "127.0.0.1", "--dir", dir.toString(), "--appendonly", "yes",
                        "--appendfsync", "everysec", "--save", "", "--maxmemory-policy", "noeviction",
                        "--daemonize", "no", "--protected-mode", "yes"))
                        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
                RedisServer server = new RedisServer(process, dir, port);
                if (server.awaitListening()) {
                    return server;
                }
                failure = new IllegalStateException("redis-server (" + binary + ") did not start listening on port "
                        + port + ": " + server.log());
                server.stop();
            } catch (IOException e) {
                failure = new IllegalStateException("cannot start redis-server (" + binary + "): " + e.getMessage(), e);
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
                .filter(p -> !p.isEmpty()).map(p -> Path.of(p, "redis-server"));
        return Stream.concat(onPath, Stream.of(Path.of("/usr/bin/redis-server")))
                .filter(Files::isExecutable).findFirst().map(Path::toString);
    }

    private static int freePort() throws IOException {
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
                    Thread.sleep(20);
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

    @Override
    public String toString() {
        return "redis-server on 127.0.0.1:" + port;
    }
}
