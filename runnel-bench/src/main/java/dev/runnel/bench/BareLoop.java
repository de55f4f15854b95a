package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.JobRow;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The database's own limit for our SQL: threads that only claim a batch of 100 and complete it,
 * with the driver's statements and none of the runtime (no producer, executor, completer). The
 * runtime's burndown is judged against this loop measured in the same run.
 */
public final class BareLoop {
    /** Jobs per claim, as the throughput target defines the loop. */
    public static final int BATCH = 100;

    private final Driver driver;
    private final long totalJobs;
    private final int threads;
    private final PrintWriter out;

    public BareLoop(Driver driver, long totalJobs, int threads, PrintWriter out) {
        this.driver = driver;
        this.totalJobs = totalJobs;
        this.threads = threads;
        this.out = out;
    }

    public BenchResult run() throws InterruptedException {
        new Migrator(driver).up();
        String queue = "bare_" + UUID.randomUUID().toString().substring(0, 8);
        IdBitmap inserted = new IdBitmap();
        IdBitmap worked = new IdBitmap();
        AtomicLong duplicates = new AtomicLong();
        LongAdder done = new LongAdder();
        long t0 = System.nanoTime();
        // An insert-only client: it holds nothing but the driver, which the caller closes.
        BenchJobs.insert(Runnel.builder().driver(driver).build(), InsertOptions.builder().queue(queue).build(),
                totalJobs, inserted);
        double insertSeconds = (System.nanoTime() - t0) / 1e9;
        WorkCost cost = WorkCost.now();
        long start = System.nanoTime();
        Progress progress = new Progress(out, false, start);
        List<Thread> loops = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            loops.add(Thread.ofVirtual().start(() -> {
                while (true) {
                    List<JobRow> jobs = driver.jobClaim(new JobClaimParams(queue, BATCH, Instant.now(), "bare"));
                    if (jobs.isEmpty()) {
                        return;
                    }
                    for (JobRow job : jobs) {
                        if (!worked.add(job.id())) {
                            duplicates.incrementAndGet();
                        }
                    }
                    driver.jobCompleteMany(JobCompleteManyParams.of(jobs, Instant.now()));
                    done.add(jobs.size());
                }
            }));
        }
        for (Thread loop : loops) {
            while (loop.isAlive()) {
                loop.join(20);
                progress.maybePrint(done.sum(), 0);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        WorkCost.PerJob perJob = cost.perJob(done.sum());
        long missing = inserted.countMissingIn(worked);
        BenchResult result = new BenchResult(driver.name(), "bare_loop", done.sum(), totalJobs, done.sum() / seconds,
                insertSeconds, totalJobs / insertSeconds, seconds, duplicates.get(), missing, threads, perJob);
        out.printf(Locale.ROOT, "bench: total jobs worked [ %d ], total jobs inserted [ %d ], overall job/sec [ %.1f ], running %.3fs (bare loop)%n",
                done.sum(), totalJobs, result.jobsPerSec(), seconds);
        out.println(result.costLine());
        out.println(result.auditLine());
        return result;
    }
}
