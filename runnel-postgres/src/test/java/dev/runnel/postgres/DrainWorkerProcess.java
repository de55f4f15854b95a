package dev.runnel.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link DrainWorkerMain} child JVM, started on this JVM's own java binary and class path. Its
 * standard output is read on a thread of its own, so that waiting for a line can time out; its
 * standard error goes to a file, so that a full pipe can never block it and a failure message can
 * show what it said. {@link #close()} destroys it if it is still alive.
 */
final class DrainWorkerProcess implements AutoCloseable {
    private static final String EOF = "\u0000EOF";
    /** How much of the child's standard error a failure message quotes. */
    private static final int STDERR_TAIL_CHARS = 6_000;

    private final String clientId;
    private final Process process;
    private final Path stderr;
    private final Path idsFile;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Writer stdin;

    private DrainWorkerProcess(String clientId, Process process, Path stderr, Path idsFile) {
        this.clientId = clientId;
        this.process = process;
        this.stderr = stderr;
        this.idsFile = idsFile;
        this.stdin = process.outputWriter(StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("drain-child-stdout-" + clientId).start(this::readStdout);
    }

    /** Starts a child working {@code queue} of {@code schema} with {@code workers} slots, as client {@code clientId}. */
    static DrainWorkerProcess start(Path dir, String clientId, String url, String schema, String queue, int workers,
            Duration maxLife) throws IOException {
        return start(dir, clientId, url, schema, queue, workers, maxLife, Duration.ZERO, false);
    }

    /** As {@link #start(Path, String, String, String, String, int, Duration)}, each job taking {@code work}, with short cluster timings when {@code fast}. */
    static DrainWorkerProcess start(Path dir, String clientId, String url, String schema, String queue, int workers,
            Duration maxLife, Duration work, boolean fast) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path stderr = dir.resolve(clientId + ".stderr");
        Path ids = dir.resolve(clientId + ".ids");
        List<String> command = List.of(java,
                // Small and quick to warm: a serial collector and C1 only leave the two cores to the work.
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"),
                DrainWorkerMain.class.getName(),
                url, schema, queue, String.valueOf(workers), ids.toString(), clientId,
                String.valueOf(maxLife.toSeconds()), String.valueOf(work.toMillis()), fast ? "fast" : "normal");
        Process process = new ProcessBuilder(command)
                .redirectError(stderr.toFile())
                .start();
        return new DrainWorkerProcess(clientId, process, stderr, ids);
    }

    String clientId() {
        return clientId;
    }

    /** The child's process, to kill it as a crash would. */
    Process process() {
        return process;
    }

    /** Waits for a line starting with {@code prefix}, skipping others; fails with the child's story if none comes. */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> skipped = new ArrayList<>();
        while (true) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null || line.equals(EOF)) {
                if (line != null) {
                    lines.add(EOF);
                }
                throw new AssertionError((line == null ? "timed out after " + timeout : "output ended")
                        + " waiting for " + prefix + " from " + describe() + "\nother output: " + skipped);
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            skipped.add(line);
        }
    }

    /** Sends one line to the child. */
    void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError("cannot write to " + describe(), e);
        }
    }

    /** Tells the child to stop, waits for it to exit cleanly, and returns the ids it worked. */
    List<Long> stopAndReadIds(Duration timeout) throws InterruptedException, IOException {
        send("STOP");
        awaitLine("DONE", timeout);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
            throw new AssertionError("did not exit cleanly: " + describe());
        }
        List<Long> ids = new ArrayList<>();
        for (String line : Files.readAllLines(idsFile)) {
            if (!line.isBlank()) {
                ids.add(Long.parseLong(line));
            }
        }
        return ids;
    }

    /** The child's id, exit status and the tail of its standard error. */
    String describe() {
        String status = process.isAlive() ? "alive" : "exited with " + process.exitValue();
        String err;
        try {
            err = Files.readString(stderr);
        } catch (IOException | UncheckedIOException e) {
            err = "(standard error unreadable: " + e + ")";
        }
        if (err.length() > STDERR_TAIL_CHARS) {
            err = "..." + err.substring(err.length() - STDERR_TAIL_CHARS);
        }
        return "child " + clientId + " (pid " + process.pid() + ", " + status + "), standard error:\n" + err;
    }

    private void readStdout() {
        try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the child is gone; EOF below says so
        }
        lines.add(EOF);
    }

    @Override
    public void close() {
        boolean interrupted = false;
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                // A test that timed out is interrupted: the child must still not be left behind.
                process.destroyForcibly();
                interrupted = true;
            }
        }
        try {
            stdin.close();
        } catch (IOException e) {
            // the child is gone already
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
