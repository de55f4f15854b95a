package dev.runnel.cli;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runnel bench}: works no-op jobs as fast as the runtime and database allow, and audits that
 * each inserted job was worked exactly once.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Work no-op jobs as fast as possible and report jobs/s, with an exactly-once audit.")
final class BenchCommand implements Callable<Integer> {
    /** Jobs per insert statement: large enough to amortise a round trip, small enough to keep locks short. */
    static final int INSERT_BATCH = 10_000;
    /** Default concurrent jobs: enough that a claim batch amortises its statement. */
    static final int DEFAULT_MAX_WORKERS = 1_000;

    @Mixin
    DatabaseOption database;

    @Spec
    CommandSpec spec;

    @Option(names = "--num-total-jobs", paramLabel = "N",
            description = "Insert N jobs first (timed on its own), then work them down. Without it, keep the queue topped up.")
    Long totalJobs;

    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class,
            description = "Stop after this long (e.g. 30s, 2m). Default: until done, or Ctrl-C.")
    Duration duration;

    @Option(names = "--max-workers", paramLabel = "W", defaultValue = "" + DEFAULT_MAX_WORKERS,
            description = "Concurrent jobs (default: ${DEFAULT-VALUE}).")
    int maxWorkers;

    @Option(names = "--json", description = "Print a JSON summary as the last line.")
    boolean json;

    /** The bench's args: nothing but a kind. */
    record BenchArgs(int n) implements JobArgs {
        @Override
        public String kind() {
            return "bench_noop";
        }
    }

    private final IdBitmap worked = new IdBitmap();
    private final IdBitmap inserted = new IdBitmap();
    private final LongAdder workedCount = new LongAdder();
    private final LongAdder completedCount = new LongAdder();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong insertedCount = new AtomicLong();
    private volatile boolean stopRequested;

    @Override
    public Integer call() throws Exception {
        if (totalJobs != null && totalJobs < 1) {
            throw new IllegalArgumentException("--num-total-jobs must be at least 1, was " + totalJobs);
        }
        if (maxWorkers < 1 || maxWorkers > Runnel.Builder.MAX_WORKERS) {
            throw new IllegalArgumentException("--max-workers must be between 1 and " + Runnel.Builder.MAX_WORKERS);
        }
        if (totalJobs == null && duration == null && System.console() == null) {
            // Without a terminal nobody can press Ctrl-C: refuse to run forever.
            throw new IllegalArgumentException("give --num-total-jobs or --duration when not on a terminal");
        }
        PrintWriter out = spec.commandLine().getOut();
        Driver driver = database.open();
        new Migrator(driver).up();
        String queue = "bench_" + UUID.randomUUID().toString().substring(0, 8);
        InsertOptions options = InsertOptions.builder().queue(queue).build();

        Runnel runnel = Runnel.builder()
                .driver(driver)
                .queue(queue, maxWorkers)
                .worker(BenchArgs.class, job -> {
                    workedCount.increment();
                    if (!worked.add(job.id())) {
                        duplicates.incrementAndGet();
                    }
                })
                .listener(event -> {
                    if (event.type() == JobEvent.Type.COMPLETED) {
                        completedCount.increment();
                    }
                })
                .build();

        double insertSeconds = 0;
        if (totalJobs != null) {
            long t0 = System.nanoTime();
            insert(runnel, options, totalJobs);
            insertSeconds = (System.nanoTime() - t0) / 1e9;
            out.printf(Locale.ROOT, "bench: jobs worked [ 0 ], inserted [ %d ], job/sec [ 0.0 ] [%.1fs]%n",
                    totalJobs, insertSeconds);
        }

        CountDownLatch interrupted = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopRequested = true;
            interrupted.countDown();
        });
        Runtime.getRuntime().addShutdownHook(hook);

        long start = System.nanoTime();
        runnel.start();
        Thread feeder = totalJobs == null ? Thread.ofPlatform().name("bench-feeder").daemon()
                .start(() -> feed(runnel, options)) : null;
        long deadline = duration == null ? Long.MAX_VALUE : start + duration.toNanos();
        long lastCount = 0;
        long lastInserted = insertedCount.get();
        long lastTick = start;
        while (!stopRequested && System.nanoTime() < deadline) {
            if (totalJobs != null && completedCount.sum() >= totalJobs) {
                break;
            }
            long wait = Math.min(TimeUnit.MILLISECONDS.toNanos(50), deadline - System.nanoTime());
            interrupted.await(Math.max(wait, 0), TimeUnit.NANOSECONDS);
            long now = System.nanoTime();
            if (now - lastTick >= TimeUnit.SECONDS.toNanos(2)) {
                long count = completedCount.sum();
                long ins = insertedCount.get();
                double secs = (now - lastTick) / 1e9;
                out.printf(Locale.ROOT, "bench: jobs worked [ %d ], inserted [ %d ], job/sec [ %.1f ] [%.0fs]%n",
                        count - lastCount, totalJobs == null ? ins - lastInserted : 0, (count - lastCount) / secs, secs);
                lastCount = count;
                lastInserted = ins;
                lastTick = now;
            }
        }
        long workEnd = System.nanoTime();
        stopRequested = true;
        if (feeder != null) {
            feeder.join();
            // Work off what the feeder left queued, so the audit can be exact.
            long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (completedCount.sum() < insertedCount.get() && System.nanoTime() < drainDeadline) {
                Thread.sleep(10);
            }
        }
        runnel.stop(Duration.ofSeconds(10));
        long workedTotal = completedCount.sum();
        long[] missing = {0};
        inserted.forEach(id -> {
            if (!worked.contains(id)) {
                missing[0]++;
            }
        });
        runnel.close();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running: fine
        }

        double seconds = (workEnd - start) / 1e9;
        double jobsPerSec = workedTotal / seconds;
        out.printf(Locale.ROOT, "bench: total jobs worked [ %d ], total jobs inserted [ %d ], overall job/sec [ %.1f ], running %.3fs%n",
                workedTotal, insertedCount.get(), jobsPerSec, seconds);
        if (json) {
            out.printf(Locale.ROOT, "{\"driver\":\"%s\",\"jobs_worked\":%d,\"jobs_inserted\":%d,\"jobs_per_sec\":%.1f,"
                            + "\"insert_seconds\":%.3f,\"insert_jobs_per_sec\":%.1f,\"seconds\":%.3f,\"duplicates\":%d,"
                            + "\"missing\":%d,\"max_workers\":%d}%n",
                    driver.name(), workedTotal, insertedCount.get(), jobsPerSec, insertSeconds,
                    insertSeconds > 0 ? insertedCount.get() / insertSeconds : 0.0, seconds, duplicates.get(),
                    missing[0], maxWorkers);
        }
        out.flush();
        return duplicates.get() == 0 && missing[0] == 0 ? 0 : Main.EXIT_FAILURE;
    }

    private void insert(Runnel runnel, InsertOptions options, long count) {
        List<InsertRequest> batch = new ArrayList<>(INSERT_BATCH);
        for (long i = 0; i < count; i++) {
            batch.add(new InsertRequest(new BenchArgs((int) i), options));
            if (batch.size() == INSERT_BATCH || i == count - 1) {
                for (long id : runnel.insertMany(batch)) {
                    inserted.add(id);
                }
                insertedCount.addAndGet(batch.size());
                batch.clear();
            }
        }
    }

    /** Keeps a few batches' worth of jobs waiting, so workers never run dry. */
    private void feed(Runnel runnel, InsertOptions options) {
        long backlog = Math.max(2L * maxWorkers, 2L * INSERT_BATCH);
        while (!stopRequested) {
            if (insertedCount.get() - completedCount.sum() < backlog) {
                insert(runnel, options, INSERT_BATCH);
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
