package dev.runnel.sqlite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own running a test's {@code main}, on the test's class path: a second process on
 * the same database file. Talks in lines: the test writes commands to its stdin and reads the
 * lines it prints that start with {@code @} (the rest is its log).
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final PrintWriter in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder log = new StringBuilder();

    ChildJvm(Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        in = new PrintWriter(process.outputWriter(StandardCharsets.UTF_8), true);
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("@")) {
                        lines.add(line.substring(1));
                    } else {
                        synchronized (log) {
                            log.append(line).append('\n');
                        }
                    }
                }
            } catch (IOException ignored) {
                // the child is gone
            }
        });
    }

    void send(String command) {
        in.println(command);
    }

    /** The child's next {@code @} line, failing with its log when none comes in time. */
    String expect(String prefix, long timeoutMs) throws InterruptedException {
        String line = lines.poll(timeoutMs, TimeUnit.MILLISECONDS);
        if (line == null || !line.startsWith(prefix)) {
            throw new AssertionError("expected '" + prefix + "' from child " + process.pid() + ", got " + line
                    + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")") + "; its log:\n" + log());
        }
        return line;
    }

    String log() {
        synchronized (log) {
            return log.toString();
        }
    }

    boolean awaitExit(long timeoutMs) throws InterruptedException {
        return process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        in.close();
        process.destroyForcibly();
    }

    /** In the child: prints a line the test reads. */
    static void say(String line) {
        System.out.println("@" + line);
        System.out.flush();
    }
}
