package dev.runnel.bench;

import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.sqlite.SqliteBusyWait;
import dev.runnel.sqlite.SqliteDriver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process of the SQLite contention scenario, started by {@link SqliteContention}: threads
 * (virtual, as a job's would be) that each insert one job at a time, every insert a short write
 * transaction through the driver's writer and its busy wait, with a pause between them.
 *
 * <p>Talks over stdin/stdout: prints {@code ready} once its driver is open and warmed; on
 * {@code go} runs for the given time, then prints {@code result} and one JSON object: per thread
 * (a "connection" in the scenario's report) its writes' latencies in microseconds and its errors, and
 * the first error's message.
 *
 * <p>Arguments: database file, busy wait ({@code FAIR} or {@code NATIVE}), busy timeout in ms,
 * threads, run time in ms, pause between one thread's writes in ms.
 */
public final class SqliteContentionWriter {
    /** A fast write's job; never worked, the scenario measures only the writes. */
    public record Write(int thread) implements JobArgs {
        @Override
        public String kind() {
            return "contention_write";
        }
    }

    private SqliteContentionWriter() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        SqliteBusyWait wait = SqliteBusyWait.valueOf(args[1]);
        Duration busyTimeout = Duration.ofMillis(Long.parseLong(args[2]));
        int threads = Integer.parseInt(args[3]);
        long runNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[4]));
        long pauseMs = Long.parseLong(args[5]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (Runnel runnel = Runnel.builder().driver(SqliteDriver.open(file, busyTimeout, wait)).build()) {
            for (int i = 0; i < 200; i++) {
                runnel.insert(new Write(-1)); // the insert path compiled before the clock starts
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            out.println("ready");
            if (!"go".equals(in.readLine())) {
                return;
            }
            long end = System.nanoTime() + runNanos;
            List<Connection> connections = new ArrayList<>();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Connection c = new Connection(t);
                connections.add(c);
                running.add(Thread.ofVirtual().start(() -> c.run(runnel, end, pauseMs)));
            }
            for (Thread t : running) {
                t.join();
            }
            out.println("result");
            out.println(toJson(connections));
        }
    }

    /** One thread's writes. */
    private static final class Connection {
        final int thread;
        final LongList latenciesMicros = new LongList();
        long errors;
        String firstError = "";

        Connection(int thread) {
            this.thread = thread;
        }

        void run(Runnel runnel, long end, long pauseMs) {
            while (System.nanoTime() - end < 0) {
                long start = System.nanoTime();
                try {
                    runnel.insert(new Write(thread));
                    latenciesMicros.add((System.nanoTime() - start) / 1_000);
                } catch (RuntimeException e) {
                    if (errors++ == 0) {
                        firstError = String.valueOf(e.getMessage());
                    }
                }
                try {
                    Thread.sleep(pauseMs);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private static String toJson(List<Connection> connections) {
        StringBuilder b = new StringBuilder("{\"connections\":[");
        for (int i = 0; i < connections.size(); i++) {
            Connection c = connections.get(i);
            b.append(i == 0 ? "" : ",").append("{\"errors\":").append(c.errors).append(",\"first_error\":\"")
                    .append(c.firstError.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " "))
                    .append("\",\"latencies_us\":[");
            for (int j = 0; j < c.latenciesMicros.size(); j++) {
                b.append(j == 0 ? "" : ",").append(c.latenciesMicros.get(j));
            }
            b.append("]}");
        }
        return b.append("]}").toString();
    }

    /** A growable list of longs, without boxing each latency. */
    static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long get(int i) {
            return values[i];
        }

        int size() {
            return size;
        }
    }
}
