package dev.runnel.bench;

import dev.runnel.Drivers;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One worker process of a drain, started fresh by {@link Drain}. It talks over stdin/stdout:
 * prints {@code ready} and its client's id once its client is built; starts working on {@code go}; prints
 * {@code progress N} (completions written) as it goes; on {@code stop} stops gracefully, writes
 * the ids it worked to its ids file, prints {@code done DUPLICATES} and exits.
 *
 * <p>Before it says {@code ready} it may work a number of warm-up jobs that the harness put in a
 * queue of its own, so that the JIT compiler's one-time work on the hot path is not billed to the
 * drain: the drain measures the cost per job of a worker in steady state, as a long-lived process
 * runs. Warm-up jobs take the drain's job time, up to {@link #WARM_UP_MAX_JOB_TIME}, so that jobs
 * that wait (and their threads' parking and waking) are compiled before the drain too.
 *
 * <p>Arguments: queue, concurrent jobs, fetch cooldown in ms, ids file, warm-up jobs, delivery
 * ({@code AT_LEAST_ONCE} or {@code AT_MOST_ONCE}), how long each job takes in ms, the queue's
 * global limit and per-key limit (0 for none; with either, it records when each job ran, see
 * {@link RunSpans}), and the warm-up queue. The database
 * URL comes in {@value #URL_VARIABLE}, kept off the command line: it may hold a password.
 */
public final class DrainWorker {
    /** The environment variable the database URL comes in. */
    public static final String URL_VARIABLE = "RUNNEL_DRAIN_DATABASE_URL";

    /**
     * The longest a warm-up job takes: 1 ms. Any wait runs the code of a job that waits; longer
     * ones would only make the warm-up longer (50,000 jobs at 50 at once take a second at 1 ms).
     */
    static final Duration WARM_UP_MAX_JOB_TIME = Duration.ofMillis(1);

    private DrainWorker() {}

    public static void main(String[] args) throws Exception {
        String url = System.getenv(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            throw new IllegalStateException(URL_VARIABLE + " is not set");
        }
        String queue = args[0];
        int threads = Integer.parseInt(args[1]);
        long cooldownMs = Long.parseLong(args[2]);
        Path idsFile = Path.of(args[3]);
        int warmup = Integer.parseInt(args[4]);
        Runnel.Delivery delivery = Runnel.Delivery.valueOf(args[5]);
        Duration jobTime = Duration.ofMillis(Long.parseLong(args[6]));
        int globalLimit = Integer.parseInt(args[7]);
        int perKey = Integer.parseInt(args[8]);
        String warmUpQueue = args[9];
        boolean deleteCompleted = Boolean.parseBoolean(args[10]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (warmup > 0) {
            warmUp(url, warmUpQueue, threads, cooldownMs, warmup, delivery, warmUpJobTime(jobTime), deleteCompleted);
        }

        BenchJobs.Tally tally = new BenchJobs.Tally();
        RunSpans spans = new RunSpans();
        RunnelBuilder builder = client(url, queue, threads, cooldownMs, delivery, jobTime, deleteCompleted, tally);
        if (globalLimit > 0) {
            builder.globalLimit(queue, globalLimit);
        }
        if (perKey > 0) {
            builder.keyLimit(queue, dev.runnel.KeyLimit.byMetadata(RunSpans.KEY, perKey));
        }
        if (globalLimit > 0 || perKey > 0) {
            builder.workMiddleware(spans);
        }
        Runnel runnel = builder.build();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        out.println("ready " + runnel.id());
        if (!"go".equals(in.readLine())) {
            runnel.close();
            return;
        }
        runnel.start();
        Thread reporter = Thread.ofPlatform().daemon().start(() -> {
            long last = -1;
            while (!Thread.currentThread().isInterrupted()) {
                long now = tally.completed.sum();
                if (now != last) {
                    out.println("progress " + now);
                    last = now;
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        String line;
        while ((line = in.readLine()) != null && !line.equals("stop")) {
            // wait for the coordinator
        }
        runnel.close();
        reporter.interrupt();
        writeIds(tally.worked, idsFile);
        if (globalLimit > 0 || perKey > 0) {
            spans.write(RunSpans.file(idsFile));
        }
        out.println("done " + tally.duplicates.get());
    }

    /**
     * The client of one queue, as the drain and its warm-up both build it: the warm-up runs the
     * very worker and listener classes the drain runs, so that the compiled code it leaves is the
     * drain's (code compiled for other classes is thrown away at the first job of the drain, and
     * compiled again on the drain's time).
     */
    private static RunnelBuilder client(String url, String queue, int threads, long cooldownMs, Runnel.Delivery delivery,
            Duration jobTime, boolean deleteCompleted, BenchJobs.Tally tally) {
        RunnelBuilder builder = BenchJobs.client(Drivers.open(url), queue, threads, delivery, jobTime, tally)
                .fetchCooldown(Duration.ofMillis(cooldownMs));
        if (deleteCompleted) {
            builder.retention(JobState.COMPLETED, Duration.ZERO);
        }
        return builder;
    }

    /** How long each warm-up job takes when the drain's take {@code jobTime}: as long, up to {@link #WARM_UP_MAX_JOB_TIME}. */
    static Duration warmUpJobTime(Duration jobTime) {
        return jobTime.compareTo(WARM_UP_MAX_JOB_TIME) > 0 ? WARM_UP_MAX_JOB_TIME : jobTime;
    }

    private static void warmUp(String url, String queue, int threads, long cooldownMs, int jobs,
            Runnel.Delivery delivery, Duration jobTime, boolean deleteCompleted) throws InterruptedException {
        BenchJobs.Tally tally = new BenchJobs.Tally();
        try (Runnel runnel = client(url, queue, threads, cooldownMs, delivery, jobTime, deleteCompleted, tally).build()) {
            runnel.start();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
            while (tally.completed.sum() < jobs && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
        }
    }

    private static void writeIds(IdBitmap ids, Path file) throws IOException {
        try (DataOutputStream data = new DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(file)))) {
            IOException[] failure = new IOException[1];
            ids.forEach(id -> {
                try {
                    data.writeLong(id);
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
        }
    }
}
