package dev.runnel.redis;

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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RedisWorkerMain} child JVM on this JVM's java and class path. Its standard output is
 * read on a thread of its own ({@code WORKED} lines are collected, the rest awaited); its standard
 * error goes to a file that a failure quotes. {@link #close()} kills it if it is still alive.
 */
final class RedisWorkerProcess implements AutoCloseable {
    private static final String EOF = "\u0000EOF";

    private final String clientId;
    private final Process process;
    private final Path stderr;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Long> worked = new ConcurrentLinkedQueue<>();

    private RedisWorkerProcess(String clientId, Process process, Path stderr) {
        this.clientId = clientId;
        this.process = process;
        this.stderr = stderr;
        this.stdin = process.outputWriter(StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("child-stdout-" + clientId).start(this::readStdout);
    }

    static RedisWorkerProcess start(Path dir, String url, String queue, int slots, String clientId, Duration work)
            throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path stderr = dir.resolve(clientId + ".stderr");
        Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), RedisWorkerMain.class.getName(),
                url, queue, String.valueOf(slots), clientId, String.valueOf(work.toMillis()), "180")
                .redirectError(stderr.toFile()).start();
        return new RedisWorkerProcess(clientId, process, stderr);
    }

    String clientId() {
        return clientId;
    }

    Process process() {
        return process;
    }

    /** The ids of the jobs the child said it was handed, in order. */
    List<Long> worked() {
        return List.copyOf(worked);
    }

    /** Sends the child a signal ({@code STOP}, {@code CONT}) through kill(1). */
    void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Waits for a line starting with {@code prefix}, skipping others; fails with the child's story if none comes. */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null || line.equals(EOF)) {
                if (line != null) {
                    lines.add(EOF);
                }
                throw new AssertionError((line == null ? "timed out after " + timeout : "output ended")
                        + " waiting for " + prefix + " from " + describe());
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError("cannot write to " + describe(), e);
        }
    }

    /** Tells the child to stop, and waits for it to say so and exit cleanly. */
    void stop(Duration timeout) throws InterruptedException {
        send("STOP");
        awaitLine("DONE", timeout);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
            throw new AssertionError("did not exit cleanly: " + describe());
        }
    }

    String describe() {
        String status = process.isAlive() ? "alive" : "exited with " + process.exitValue();
        String err;
        try {
            err = Files.readString(stderr);
        } catch (IOException | UncheckedIOException e) {
            err = "(standard error unreadable: " + e + ")";
        }
        if (err.length() > 6_000) {
            err = "..." + err.substring(err.length() - 6_000);
        }
        return "child " + clientId + " (pid " + process.pid() + ", " + status + "), standard error:\n" + err;
    }

    private void readStdout() {
        try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("WORKED ")) {
                    worked.add(Long.parseLong(line.substring("WORKED ".length())));
                } else {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            // the child is gone; EOF says so
        }
        lines.add(EOF);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            stdin.close();
        } catch (IOException e) {
            // the child is gone already
        }
    }
}
