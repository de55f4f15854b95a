package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The latency bench ({@code runnel bench --latency}): jobs inserted one at a time, at a steady
 * rate, into an idle client (or one working a steady background load, {@link Options#loadPerSec});
 * for each, the time from the insert call to its worker starting, and to its completion being
 * stored. On
 * SQLite the client runs in this JVM, woken by the in-process signal; on Postgres and Redis it
 * runs in a JVM of its own, woken by LISTEN/NOTIFY or by the namespace's pub/sub channel. First,
 * one job waits while a new client starts: the time from its start call to that job's worker
 * starting.
 */
public final class Latency {
    /** Default jobs per driver: 1,000, so that the p99.9 is a job's own figure, not the slowest's. */
    public static final int DEFAULT_JOBS = 1_000;
    /** Default rate: 50 jobs/s, one every 20 ms, closer together than the default fetch cooldown. */
    public static final double DEFAULT_RATE = 50;
    /** The most background load, jobs/s. */
    public static final double MAX_LOAD = 100_000;
    /** Background jobs are inserted in bulk this often: the load is steady at the scale of a claim. */
    private static final long LOAD_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** Default warm-up: jobs run one after another, unmeasured, before the steady ones. */
    public static final int DEFAULT_WARMUP = 5_000;

    /**
     * @param warmup jobs inserted and run one after another before the measured ones, so that the
     *     measured ones meet the code paths compiled, as an application that has run for a while
     *     does (the first job after a start is measured apart, cold)
     * @param workers the client's slots on the queue
     * @param loadPerSec background jobs inserted per second into the same queue while the measured
     *     ones are (in bulk, every 10 ms), worked by the same client and not measured; 0 for none
     */
    public record Options(int jobs, double ratePerSec, int warmup, int workers, double loadPerSec, Duration timeout) {
        /** An idle client's options: no background load. */
        public Options(int jobs, double ratePerSec, int warmup, int workers, Duration timeout) {
            this(jobs, ratePerSec, warmup, workers, 0, timeout);
        }
    }

    private final Options options;
    private final PrintWriter out;

    public Latency(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /** The client in this JVM, on a fresh SQLite file in a temp dir. */
    public LatencyResult runSqlite() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("runnel-latency");
        try (BenchDatabase db = BenchDatabase.open("sqlite://" + dir.resolve("latency.db"))) {
            new Migrator(db.driver()).up();
            String queue = queue();
            double cold = LatencyProbe.warmUp(db.driver());
            BlockingQueue<long[]> starts = new LinkedBlockingQueue<>();
            BlockingQueue<long[]> stored = new LinkedBlockingQueue<>();
            Runnel runnel = LatencyProbe.client(db.driver(), queue, options.workers(), new LatencyProbe.Sink() {
                @Override
                public void started(long id, long sentMicros, long startedMicros) {
                    starts.add(new long[] {id, sentMicros, startedMicros});
                }

                @Override
                public void stored(long id, long storedMicros) {
                    stored.add(new long[] {id, storedMicros});
                }
            });
            try {
                // Inserted through the working client itself, as an application would: its insert
                // signals its own producer (another client's insert would wake only that client).
                return measure("sqlite", "same", cold, runnel, queue, starts, stored, () -> {
                    long t0 = LatencyProbe.nowMicros();
                    runnel.start();
                    return t0;
                });
            } finally {
                runnel.stop(Duration.ofSeconds(10));
            }
        } finally {
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    /** The client in a JVM of its own, on a fresh schema of the Postgres at {@code url}. */
    public LatencyResult runPostgres(String url) throws IOException, InterruptedException {
        return runInOtherProcess("postgres", url);
    }

    /** The client in a JVM of its own, on a fresh namespace of the Redis at {@code url}, woken by its channel. */
    public LatencyResult runRedis(String url) throws IOException, InterruptedException {
        return runInOtherProcess("redis", url);
    }

    private LatencyResult runInOtherProcess(String driver, String url) throws IOException, InterruptedException {
        try (BenchDatabase db = BenchDatabase.open(url)) {
            String queue = queue();
            String java = ProcessHandle.current().info().command().orElse("java");
            ProcessBuilder builder = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                    LatencyProbe.class.getName(), queue, Integer.toString(options.workers())))
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put(LatencyProbe.URL_VARIABLE, db.url());
            Process child = builder.start();
            try {
                BlockingQueue<String> lines = new LinkedBlockingQueue<>();
                Thread.ofPlatform().daemon().start(() -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                            StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = r.readLine()) != null) {
                            lines.add(line);
                        }
                    } catch (IOException ended) {
                        // the probe exited
                    } finally {
                        lines.add(EOF);
                    }
                });
                BufferedWriter stdin = new BufferedWriter(new OutputStreamWriter(child.getOutputStream(),
                        StandardCharsets.UTF_8));
                double cold = Double.parseDouble(expect(lines, "cold ", Duration.ofSeconds(180)).substring(5));
                expect(lines, "ready", Duration.ofSeconds(60));
                BlockingQueue<long[]> starts = new LinkedBlockingQueue<>();
                BlockingQueue<long[]> stored = new LinkedBlockingQueue<>();
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        for (String line = lines.take(); !line.equals(EOF); line = lines.take()) {
                            if (line.startsWith("job ")) {
                                String[] f = line.split(" ");
                                starts.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])});
                            } else if (line.startsWith("stored ")) {
                                String[] f = line.split(" ");
                                stored.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
                            } else if (line.startsWith("started ")) {
                                starts.add(new long[] {-1, Long.parseLong(line.substring(8).strip()), 0});
                            }
                        }
                    } catch (InterruptedException stop) {
                        // done
                    }
                });
                Runnel inserter = Runnel.builder().driver(db.driver()).build();
                LatencyResult result = measure(driver, "other", cold, inserter, queue, starts, stored, () -> {
                    send(stdin, "go");
                    long[] started = starts.poll(60, TimeUnit.SECONDS);
                    if (started == null || started[0] != -1) {
                        throw new IllegalStateException("the probe JVM did not start its client");
                    }
                    return started[1];
                });
                send(stdin, "stop");
                child.waitFor(30, TimeUnit.SECONDS);
                return result;
            } finally {
                child.destroyForcibly();
            }
        }
    }

    /** Put after the probe's last line: no line it prints is empty. */
    private static final String EOF = "";

    /** Starts the client: returns the wall-clock micros at its start call. */
    private interface Starter {
        long start() throws IOException, InterruptedException;
    }

    /**
     * Runs the warm-up and the measured jobs. {@code starts} hears {@code {id, sent, started}} as
     * each job starts, {@code stored} {@code {id, stored}} as its completion is stored (both wall
     * clock microseconds).
     */
    private LatencyResult measure(String driver, String process, double coldMs, Runnel inserter, String queue,
            BlockingQueue<long[]> starts, BlockingQueue<long[]> stored, Starter starter)
            throws IOException, InterruptedException {
        InsertOptions opts = InsertOptions.builder().queue(queue).build();
        IdBitmap inserted = new IdBitmap();
        IdBitmap worked = new IdBitmap();
        long duplicates = 0;
        inserted.add(inserter.insert(new LatencyProbe.Args(LatencyProbe.BEFORE_START), opts).id());
        long t0 = starter.start();
        long[] first = take(starts);
        if (!worked.add(first[0])) {
            duplicates++;
        }
        double firstMs = (first[2] - t0) / 1e3;
        for (int i = 0; i < options.warmup(); i++) {
            inserted.add(inserter.insert(new LatencyProbe.Args(LatencyProbe.nowMicros()), opts).id());
            duplicates += worked.add(take(starts)[0]) ? 0 : 1;
        }
        // Let the start settle (its first poll and election) so the steady jobs meet an idle client.
        Thread.sleep(500);
        Thread load = options.loadPerSec() > 0 ? startLoad(inserter, opts) : null;
        if (load != null) {
            Thread.sleep(500); // the load at its pace before the first measured job
        }
        stored.clear(); // the warm-up's
        long[] micros = new long[options.jobs()];
        Map<Long, Long> sentById = new HashMap<>(options.jobs() * 2);
        long interval = (long) (1e9 / options.ratePerSec());
        long next = System.nanoTime();
        int got = 0;
        for (int i = 0; i < options.jobs(); i++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            next += interval;
            inserted.add(inserter.insert(new LatencyProbe.Args(LatencyProbe.nowMicros()), opts).id());
            for (long[] s; (s = starts.poll()) != null; ) {
                duplicates += worked.add(s[0]) ? 0 : 1;
                sentById.put(s[0], s[1]);
                micros[got++] = s[2] - s[1];
            }
        }
        long deadline = System.nanoTime() + options.timeout().toNanos();
        while (got < options.jobs() && System.nanoTime() - deadline < 0) {
            long[] s = starts.poll(100, TimeUnit.MILLISECONDS);
            if (s != null) {
                duplicates += worked.add(s[0]) ? 0 : 1;
                if (got < micros.length) {
                    sentById.put(s[0], s[1]);
                    micros[got++] = s[2] - s[1];
                }
            }
        }
        long[] storedMicros = storedTimes(stored, sentById, deadline);
        if (load != null) {
            load.interrupt();
            load.join();
        }
        long missing = inserted.countMissingIn(worked);
        LatencyResult result = LatencyResult.of(driver, process, options.ratePerSec(), options.loadPerSec(),
                java.util.Arrays.copyOf(micros, got), storedMicros, firstMs, coldMs, duplicates, missing);
        out.println(result.describe());
        out.flush();
        return result;
    }

    /**
     * From insert to stored completion, in microseconds, for each measured job ({@code sentById}):
     * waits until {@code deadline} for their completions to be stored, and leaves out the others'.
     */
    private static long[] storedTimes(BlockingQueue<long[]> stored, Map<Long, Long> sentById, long deadline)
            throws InterruptedException {
        long[] micros = new long[sentById.size()];
        int n = 0;
        while (n < micros.length) {
            long[] s = stored.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (s == null) {
                break;
            }
            Long sent = sentById.remove(s[0]);
            if (sent != null) {
                micros[n++] = s[1] - sent;
            }
        }
        return java.util.Arrays.copyOf(micros, n);
    }

    /**
     * Inserts {@link Options#loadPerSec} background jobs a second into the measured queue, in bulk
     * every {@link #LOAD_TICK_NANOS}, until interrupted. They carry {@link LatencyProbe#LOAD}, so
     * the probe does not report them.
     */
    private Thread startLoad(Runnel inserter, InsertOptions opts) {
        return Thread.ofPlatform().name("latency-load").daemon().start(() -> {
            double perTick = options.loadPerSec() * LOAD_TICK_NANOS / 1e9;
            double owed = 0;
            long next = System.nanoTime();
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    owed += perTick;
                    int n = (int) owed;
                    owed -= n;
                    if (n > 0) {
                        List<dev.runnel.InsertRequest> batch = new java.util.ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            batch.add(new dev.runnel.InsertRequest(new LatencyProbe.Args(LatencyProbe.LOAD), opts));
                        }
                        inserter.insertMany(batch);
                    }
                    next += LOAD_TICK_NANOS;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                }
            } catch (InterruptedException stop) {
                // the measured jobs are done
            }
        });
    }

    private long[] take(BlockingQueue<long[]> starts) throws InterruptedException {
        long[] s = starts.poll(options.timeout().toNanos(), TimeUnit.NANOSECONDS);
        if (s == null) {
            throw new IllegalStateException("the first job did not start within " + options.timeout());
        }
        return s;
    }

    private static String expect(BlockingQueue<String> lines, String word, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new IllegalStateException("the probe JVM did not say '" + word + "'");
            }
            if (line.startsWith(word)) {
                return line;
            }
        }
    }

    private static void send(BufferedWriter stdin, String word) throws IOException {
        stdin.write(word);
        stdin.newLine();
        stdin.flush();
    }

    private static String queue() {
        return "latency_" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * The bench's JSON lines: one per driver measured, with its figures and targets, and one per
     * driver that could not be measured, saying why (and without figures).
     */
    public static List<String> toJsonLines(List<LatencyResult> results, Map<String, String> notRun) {
        List<String> lines = new java.util.ArrayList<>();
        results.forEach(r -> lines.add(r.toJson().toString()));
        notRun.forEach((driver, why) -> lines.add(new JsonLine().put("bench", "latency").put("driver", driver)
                .put("not_run", why).toString()));
        return lines;
    }
}
