package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The churn harness ({@code runnel churn}): N no-op jobs through one Postgres table with the
 * cleaner on. One client works a queue while a feeder keeps one to three insert batches of jobs
 * waiting, and the client's cleaner deletes completed jobs after a short retention, so that every
 * row is inserted, claimed, completed and deleted while the table holds only what is in flight and
 * a moment's worth of finished jobs. After each segment (a million jobs, or a tenth of a smaller
 * run) it records the segment's jobs/s and the table's health, so that a table that degrades
 * under churn (dead tuples, bloated indexes, a cleaner or autovacuum falling behind) shows as a
 * falling rate beside a growing table. The run passes when every job was worked exactly once and
 * the last segment ran at {@value #MIN_RATIO} or more of the first's rate.
 */
public final class Churn {
    /** Default jobs per insert statement. */
    public static final int DEFAULT_BATCH = BenchJobs.INSERT_BATCH;
    /** Default retention of completed jobs: none, deleted at the cleaner's next round. */
    public static final Duration DEFAULT_RETENTION = Duration.ZERO;
    /** Default cleaner interval: the table keeps about a second of completed jobs. */
    public static final Duration DEFAULT_CLEANER_INTERVAL = Duration.ofSeconds(1);
    /** The largest segment: a row per million jobs. */
    public static final long MAX_SEGMENT = 1_000_000;
    /** The last segment's rate must be at least this share of the first's. */
    public static final double MIN_RATIO = 0.9;
    /** A run in which no job completes for this long has stalled, and ends. */
    private static final long STALL_NANOS = TimeUnit.MINUTES.toNanos(2);

    /**
     * @param jobs jobs to work through the table
     * @param segmentJobs jobs per reported segment
     * @param batch jobs per insert; the feeder inserts whenever fewer than two batches are waiting
     * @param retention how long completed jobs are kept before the cleaner deletes them
     * @param cleanerInterval the cleaner's period
     * @param maxWorkers the queue's concurrent jobs
     */
    public record Options(long jobs, long segmentJobs, int batch, Duration retention, Duration cleanerInterval,
            int maxWorkers) {
        /** Options with the default segment: a million jobs, or a tenth of a smaller run. */
        public Options(long jobs, int batch, Duration retention, Duration cleanerInterval, int maxWorkers) {
            this(jobs, defaultSegment(jobs), batch, retention, cleanerInterval, maxWorkers);
        }

        public Options {
            if (jobs < 1 || segmentJobs < 1 || batch < 1 || maxWorkers < 1) {
                throw new IllegalArgumentException("jobs, segment, batch and workers must be positive");
            }
        }

        public static long defaultSegment(long jobs) {
            return Math.min(MAX_SEGMENT, Math.max(1, (jobs + 9) / 10));
        }
    }

    private final Driver driver;
    private final PostgresTableStats table;
    private final Options options;
    private final PrintWriter out;
    private final BenchJobs.Tally tally = new BenchJobs.Tally();
    private final IdBitmap inserted = new IdBitmap();
    private final AtomicLong insertedCount = new AtomicLong();
    /** The fewest jobs the feeder found waiting before an insert, while it had jobs left to insert. */
    private final AtomicLong minBacklog = new AtomicLong(Long.MAX_VALUE);
    private volatile boolean stopRequested;
    private volatile RuntimeException feederFailure;
    private final CountDownLatch interrupted = new CountDownLatch(1);

    public Churn(Driver driver, PostgresTableStats table, Options options, PrintWriter out) {
        this.driver = driver;
        this.table = table;
        this.options = options;
        this.out = out;
    }

    /** Stops the run early (Ctrl-C): the feeder stops, what it inserted is worked off and audited. */
    public void requestStop() {
        stopRequested = true;
        interrupted.countDown();
    }

    /** Runs the churn, printing a row per segment as it ends; returns the summary. */
    public ChurnResult run() throws InterruptedException {
        String queue = "churn_" + UUID.randomUUID().toString().substring(0, 8);
        InsertOptions insertOptions = InsertOptions.builder().queue(queue).build();
        Runnel runnel = BenchJobs.client(driver, queue, options.maxWorkers(), Runnel.Delivery.AT_LEAST_ONCE, tally)
                .retention(JobState.COMPLETED, options.retention())
                .cleanerInterval(options.cleanerInterval())
                .build();
        try {
            return run(runnel, queue, insertOptions);
        } finally {
            runnel.stopAndCancel(); // a no-op after a normal run, which stopped it gracefully
        }
    }

    private ChurnResult run(Runnel runnel, String queue, InsertOptions insertOptions) throws InterruptedException {
        TableHealth empty = table.read();
        boolean autovacuum = table.autovacuumOn();
        out.printf(Locale.ROOT, "churn: %,d jobs through one table (%s.runnel_job, queue %s): inserts of %,d whenever fewer than %,d"
                        + " wait, %,d workers, completed jobs kept %s s, cleaner every %s s, autovacuum %s; a row every"
                        + " %,d jobs%n",
                options.jobs(), table.schema(), queue, options.batch(), 2L * options.batch(), options.maxWorkers(),
                ChurnResult.seconds(options.retention()), ChurnResult.seconds(options.cleanerInterval()),
                autovacuum ? "on" : "OFF (server setting)", options.segmentJobs());
        ChurnSegment.printHeader(out, empty.indexBytes().keySet());
        out.flush();

        // Two batches waiting before the clock starts, so the first segment does not time an empty queue.
        while (insertedCount.get() < Math.min(options.jobs(), 2L * options.batch())) {
            insertBatch(runnel, insertOptions);
        }
        long start = System.nanoTime();
        runnel.start();
        Thread feeder = Thread.ofPlatform().name("churn-feeder").daemon().start(() -> feed(runnel, insertOptions));
        List<ChurnSegment> segments = new ArrayList<>();
        long segmentStart = start;
        long segmentFrom = 0;
        long lastDone = 0;
        long lastProgress = start;
        boolean stalled = false;
        try {
            while (!stopRequested) {
                long done = tally.completed.sum();
                long now = System.nanoTime();
                if (done != lastDone) {
                    lastDone = done;
                    lastProgress = now;
                } else if (now - lastProgress > STALL_NANOS) {
                    stalled = true;
                    break;
                }
                if (done >= Math.min(options.jobs(), (segments.size() + 1) * options.segmentJobs())) {
                    double seconds = (now - segmentStart) / 1e9;
                    ChurnSegment segment = new ChurnSegment(segments.size() + 1, done, done - segmentFrom, seconds,
                            (done - segmentFrom) / seconds, (now - start) / 1e9, Instant.now(), table.read());
                    segments.add(segment);
                    segment.printRow(out);
                    out.flush();
                    segmentStart = now;
                    segmentFrom = done;
                    if (done >= options.jobs()) {
                        break;
                    }
                }
                interrupted.await(5, TimeUnit.MILLISECONDS);
            }
        } finally {
            stopRequested = true;
            feeder.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // After Ctrl-C, work off what the feeder queued, so that the audit is exact for it.
        long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!stalled && tally.completed.sum() < insertedCount.get() && System.nanoTime() - drainDeadline < 0) {
            Thread.sleep(10);
        }
        runnel.stop(Duration.ofSeconds(10));
        if (feederFailure != null) {
            throw new RunnelException("the feeder failed: " + feederFailure.getMessage(), feederFailure);
        }
        if (stalled) {
            out.printf(Locale.ROOT, "churn: no job completed for %d s; giving up%n", TimeUnit.NANOSECONDS.toSeconds(STALL_NANOS));
        }
        long completed = tally.completed.sum();
        long backlog = minBacklog.get();
        ChurnResult result = new ChurnResult(driver.name(), options, autovacuum, completed, seconds, completed / seconds, segments,
                backlog == Long.MAX_VALUE ? 0 : backlog, tally.duplicates.get(), inserted.countMissingIn(tally.worked),
                table.read());
        result.printSummary(out);
        out.flush();
        return result;
    }

    private void insertBatch(Runnel runnel, InsertOptions insertOptions) {
        long count = Math.min(options.batch(), options.jobs() - insertedCount.get());
        BenchJobs.insert(runnel, insertOptions, count, inserted, options.batch());
        insertedCount.addAndGet(count);
    }

    /** Inserts a batch whenever fewer than two are waiting, until all the jobs are in. */
    private void feed(Runnel runnel, InsertOptions insertOptions) {
        long low = 2L * options.batch();
        try {
            while (!stopRequested && insertedCount.get() < options.jobs()) {
                long backlog = insertedCount.get() - tally.completed.sum();
                if (backlog < low) {
                    minBacklog.accumulateAndGet(backlog, Math::min);
                    insertBatch(runnel, insertOptions);
                } else {
                    Thread.sleep(2);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            feederFailure = e;
            requestStop();
        }
    }
}
