package dev.runnel.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of a test's own, made with Debian's {@code initdb} in a temporary directory
 * and listening on a free port of 127.0.0.1, for faults that the shared server must not suffer:
 * {@link #crash()} stops it as a power cut would (an immediate shutdown: no checkpoint, no flush
 * of the write-ahead log's buffers), {@link #start()} brings it back through crash recovery. The
 * WAL writer waits its longest (10 s) between flushes, so that what was committed without waiting
 * for the disk stays unflushed until the crash. Run as the {@code postgres} user when the tests
 * run as root ({@code initdb} refuses root). A missing PostgreSQL fails the test.
 */
final class ScratchPostgres implements AutoCloseable {
    private final Path dir;
    private final Path bin;
    private final int port;

    private ScratchPostgres(Path dir, Path bin, int port) {
        this.dir = dir;
        this.bin = bin;
        this.port = port;
    }

    /** A new cluster, initialised and started. */
    static ScratchPostgres create() throws IOException, InterruptedException {
        Path bin = binDir();
        Path dir = Files.createTempDirectory("runnel-scratch-pg");
        if (isRoot()) {
            run(List.of("chown", "postgres:postgres", dir.toString()), false);
        }
        ScratchPostgres pg = new ScratchPostgres(dir, bin, PgBouncer.freePort());
        try {
            pg.pg(List.of(bin.resolve("initdb").toString(), "-D", pg.data(), "-A", "trust", "-U", "postgres",
                    "--no-sync", "-E", "UTF8"));
            pg.start();
            return pg;
        } catch (IOException | RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    /** {@code postgres://postgres@127.0.0.1:PORT/postgres}. */
    String url() {
        return "postgres://postgres@127.0.0.1:" + port + "/postgres";
    }

    void start() throws IOException, InterruptedException {
        pg(List.of(bin.resolve("pg_ctl").toString(), "-D", data(), "-l", dir.resolve("server.log").toString(), "-w",
                "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1"
                        + " -c wal_writer_delay=10000 -c fsync=on -c synchronous_commit=on",
                "start"));
    }

    /** Stops the server at once, as a crash would: nothing more is written or flushed. */
    void crash() throws IOException, InterruptedException {
        pg(List.of(bin.resolve("pg_ctl").toString(), "-D", data(), "-m", "immediate", "-w", "stop"));
    }

    @Override
    public void close() {
        try {
            if (Files.exists(Path.of(data(), "postmaster.pid"))) {
                pg(List.of(bin.resolve("pg_ctl").toString(), "-D", data(), "-m", "immediate", "-w", "stop"));
            }
        } catch (IOException | InterruptedException | RuntimeException ignored) {
            // deleting anyway
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory
        }
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private void pg(List<String> command) throws IOException, InterruptedException {
        run(command, isRoot());
    }

    private static void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", full) + " failed: " + output);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static Path binDir() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString())))
                    .orElseThrow(() -> new IllegalStateException("no initdb under /usr/lib/postgresql"));
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL's programs are not installed under /usr/lib/postgresql", e);
        }
    }
}
