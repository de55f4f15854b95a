package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code runnel bench} workload: no-op jobs worked as fast as the runtime and database allow,
 * with every worked id recorded so that duplicates and missing jobs are exact counts.
 */
public final class Bench {
    /** Default concurrent jobs: enough that a claim batch amortises its statement. */
    public static final int DEFAULT_MAX_WORKERS = 1_000;

    /**
     * @param totalJobs insert this many first, then work them down; 0 keeps the queue topped up instead
     * @param duration stop after this long; null for no limit
     * @param delivery how the queue is worked (at most once, the claim removes the job)
     */
    public record Options(long totalJobs, Duration duration, int maxWorkers, Runnel.Delivery delivery) {}

    private final Driver driver;
    private final Options options;
    private final PrintWriter out;
    private final BenchJobs.Tally tally = new BenchJobs.Tally();
    private final IdBitmap inserted = new IdBitmap();
    private final AtomicLong insertedCount = new AtomicLong();
    private volatile boolean stopRequested;
    private final CountDownLatch interrupted = new CountDownLatch(1);

    public Bench(Driver driver, Options options, PrintWriter out) {
        this.driver = driver;
        this.options = options;
        this.out = out;
    }

    /** Stops the run early (Ctrl-C); the audit still runs. */
    public void requestStop() {
        stopRequested = true;
        interrupted.countDown();
    }

    /** Runs the bench, printing progress every 2 s; returns the summary. */
    public BenchResult run() throws InterruptedException {
        new Migrator(driver).up();
        String queue = "bench_" + UUID.randomUUID().toString().substring(0, 8);
        InsertOptions insertOptions = InsertOptions.builder().queue(queue).build();
        Runnel runnel = BenchJobs.client(driver, queue, options.maxWorkers(), options.delivery(), tally).build();

        double insertSeconds = 0;
        if (options.totalJobs() > 0) {
            out.printf(Locale.ROOT, "bench: inserting %d jobs before working them...%n", options.totalJobs());
            out.flush();
            long t0 = System.nanoTime();
            insert(runnel, insertOptions, options.totalJobs());
            insertSeconds = (System.nanoTime() - t0) / 1e9;
            out.printf(Locale.ROOT, "bench: jobs worked [ 0 ], inserted [ %d ], job/sec [ 0.0 ] [%.1fs]%n",
                    options.totalJobs(), insertSeconds);
        }

        WorkCost cost = WorkCost.now();
        long start = System.nanoTime();
        runnel.start();
        Thread feeder = options.totalJobs() == 0
                ? Thread.ofPlatform().name("bench-feeder").daemon().start(() -> feed(runnel, insertOptions)) : null;
        long deadline = options.duration() == null ? Long.MAX_VALUE : start + options.duration().toNanos();
        Progress progress = new Progress(out, options.totalJobs() == 0, start);
        while (!stopRequested && System.nanoTime() - deadline < 0) {
            if (options.totalJobs() > 0 && tally.completed.sum() >= options.totalJobs()) {
                break;
            }
            interrupted.await(Math.max(0, Math.min(TimeUnit.MILLISECONDS.toNanos(20), deadline - System.nanoTime())),
                    TimeUnit.NANOSECONDS);
            progress.maybePrint(tally.completed.sum(), insertedCount.get());
        }
        long workEnd = System.nanoTime();
        WorkCost.PerJob perJob = cost.perJob(tally.completed.sum());
        stopRequested = true;
        if (feeder != null) {
            feeder.join();
            // Work off what the feeder left queued, so the audit can be exact.
            long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (tally.completed.sum() < insertedCount.get() && System.nanoTime() - drainDeadline < 0) {
                Thread.sleep(10);
            }
        }
        runnel.stop(Duration.ofSeconds(10));
        long missing = inserted.countMissingIn(tally.worked);
        long total = tally.completed.sum();
        double seconds = (workEnd - start) / 1e9;
        BenchResult result = new BenchResult(driver.name(), BenchJobs.mode(options.delivery()),
                total, insertedCount.get(), total / seconds, insertSeconds,
                insertSeconds > 0 ? insertedCount.get() / insertSeconds : 0, seconds, tally.duplicates.get(), missing,
                options.maxWorkers(), perJob);
        out.printf(Locale.ROOT, "bench: total jobs worked [ %d ], total jobs inserted [ %d ], overall job/sec [ %.1f ], running %.3fs%n",
                total, insertedCount.get(), result.jobsPerSec(), seconds);
        out.println(result.costLine());
        out.println(result.auditLine());
        return result;
    }

    private void insert(Runnel runnel, InsertOptions insertOptions, long count) {
        BenchJobs.insert(runnel, insertOptions, count, inserted);
        insertedCount.addAndGet(count);
    }

    /** Keeps a few batches' worth of jobs waiting, so workers never run dry. */
    private void feed(Runnel runnel, InsertOptions insertOptions) {
        long backlog = Math.max(2L * options.maxWorkers(), 2L * BenchJobs.INSERT_BATCH);
        while (!stopRequested) {
            if (insertedCount.get() - tally.completed.sum() < backlog) {
                insert(runnel, insertOptions, BenchJobs.INSERT_BATCH);
            } else {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
