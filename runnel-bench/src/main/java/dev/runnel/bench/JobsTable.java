package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The jobs-table workloads ({@code runnel scenario jobs-table}): no-op, HTTP, Postgres, file and CPU-bound
 * jobs and an idle client, each at the reference run's concurrencies, in both delivery modes, with time, RSS,
 * %CPU and an exactly-once audit per row.
 *
 * <p>Every row runs in this one JVM, one after another, each on a job store of its own (a fresh
 * SQLite file, or a fresh Postgres schema); its RSS is the whole process's, after the rows before
 * it, and its %CPU the process's CPU time over the row's wall time (100% is one core). The HTTP
 * server runs in a JVM of its own; the Postgres rows' sleeps run on the local Postgres.
 */
public final class JobsTable {
    /** How long an idle row's client runs before its idling is measured: {@value} ms. */
    static final long IDLE_SETTLE_MILLIS = 2_000;
    static final Duration IDLE_SETTLE = Duration.ofMillis(IDLE_SETTLE_MILLIS);

    /** One planned row: a workload at a concurrency over a number of jobs (0 for idle). */
    public record Plan(TableWorkload workload, int concurrency, long jobs) {}

    /**
     * @param storeUrl the job store's URL; empty for a fresh SQLite file per row in a temp dir
     * @param postgresUrl where the pg_sleep rows sleep
     * @param idle how long the idle rows idle
     * @param rowTimeout how long a row may take before it is abandoned as failed
     * @param warmupJobs no-op jobs worked at 10 slots before the first row, unmeasured (0 for none)
     * @param deleteCompleted whether the rows' clients keep no completed jobs, deleting each job at
     *     its completion (as the reference's processor keeps none), rather than keeping them as a
     *     client does by default
     */
    public record Options(Optional<String> storeUrl, String postgresUrl, Duration idle, List<Plan> plans,
            List<Runnel.Delivery> modes, Duration rowTimeout, long warmupJobs, boolean deleteCompleted) {}

    /**
     * The default warm-up: 20,000 no-op jobs. Without it the first row (no-op at 10 slots, at least
     * once) also paid for the JIT compiling the claim, run and complete path that every later row
     * uses: 2.2 to 2.9 s over five runs (its target 2.66 s), 2.0 s after the warm-up.
     */
    public static final long DEFAULT_WARMUP_JOBS = 20_000;

    /** Every row: the reference run's workloads, job counts and concurrencies. */
    public static List<Plan> seedPlans() {
        List<Plan> plans = new ArrayList<>();
        for (int c : new int[] {10, 50}) {
            plans.add(new Plan(TableWorkload.NOOP, c, 100_000));
        }
        for (int c : new int[] {10, 50, 100}) {
            plans.add(new Plan(TableWorkload.HTTP, c, 1_000));
        }
        for (int c : new int[] {10, 50, 100}) {
            plans.add(new Plan(TableWorkload.PG_SLEEP, c, 1_000));
        }
        for (int c : new int[] {10, 50}) {
            plans.add(new Plan(TableWorkload.FILE, c, 50_000));
        }
        for (int c : new int[] {10, 50}) {
            plans.add(new Plan(TableWorkload.CPU, c, 1_000));
        }
        for (int c : new int[] {10, 50, 100}) {
            plans.add(new Plan(TableWorkload.IDLE, c, 0));
        }
        return plans;
    }

    private final Options options;
    private final PrintWriter out;

    public JobsTable(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /** Runs every planned row in each mode, printing each as it ends. */
    public List<TableRow> run() throws IOException {
        Path dir = Files.createTempDirectory("runnel-jobs-table");
        List<TableRow> rows = new ArrayList<>();
        try (TableWork.SleepServerHolder http = new TableWork.SleepServerHolder()) {
            if (options.warmupJobs() > 0) {
                TableRow warm = runRow(new Plan(TableWorkload.NOOP, 10, options.warmupJobs()),
                        Runnel.Delivery.AT_LEAST_ONCE, dir, http);
                out.println(warm.error().map(e -> "warm-up failed (the rows run anyway): " + e).orElse(String.format(
                        "warm-up: %,d no-op jobs at 10 slots in %.3f s, not a row", warm.jobs(), warm.seconds())));
                out.flush();
            }
            for (Plan plan : options.plans()) {
                for (Runnel.Delivery mode : options.modes()) {
                    TableRow row = runRow(plan, mode, dir, http);
                    out.println(row.describe());
                    out.flush();
                    rows.add(row);
                }
            }
        } finally {
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
        return rows;
    }

    private TableRow runRow(Plan plan, Runnel.Delivery mode, Path dir, TableWork.SleepServerHolder http) {
        try (TableWork work = TableWork.open(plan.workload(), plan.concurrency(), dir, http, options.postgresUrl())) {
            String url = options.storeUrl().orElse("sqlite://" + dir.resolve("store-" + UUID.randomUUID() + ".db"));
            try (BenchDatabase db = BenchDatabase.open(url)) {
                return measure(plan, mode, db, work);
            }
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            return TableRow.failed(plan.workload(), plan.concurrency(), mode, plan.jobs(), why.lines().findFirst().orElse(why));
        }
    }

    private TableRow measure(Plan plan, Runnel.Delivery mode, BenchDatabase db, TableWork work) throws Exception {
        new Migrator(db.driver()).up();
        String queue = "table_" + UUID.randomUUID().toString().substring(0, 8);
        BenchJobs.Tally tally = new BenchJobs.Tally();
        IdBitmap inserted = new IdBitmap();
        RunnelBuilder builder = BenchJobs.client(db.driver(), queue, plan.concurrency(), mode, work.body(), tally);
        if (options.deleteCompleted()) {
            builder.retention(JobState.COMPLETED, Duration.ZERO);
        }
        Runnel runnel = builder.build();
        long i0 = System.nanoTime();
        if (plan.jobs() > 0) {
            BenchJobs.insert(runnel, InsertOptions.builder().queue(queue).build(), plan.jobs(), inserted);
        }
        double insertSeconds = (System.nanoTime() - i0) / 1e9;
        // Let the insert's garbage go first, so the row's RSS and CPU are its own as far as they can be.
        System.gc();
        boolean idle = plan.workload() == TableWorkload.IDLE;
        if (idle) {
            // An idle client is one that has started: its start (registering, electing, the first
            // fetch) is not idling, and in a short idle row would weigh as much as the idling.
            runnel.start();
            Thread.sleep(IDLE_SETTLE.toMillis());
        }
        long pid = ProcessHandle.current().pid();
        long startRss = ProcCpu.rssKb(pid);
        double cpu0 = ProcCpu.millis(pid);
        long start = System.nanoTime();
        try {
            if (!idle) {
                runnel.start();
            }
            if (idle) {
                Thread.sleep(options.idle());
            } else {
                long deadline = start + options.rowTimeout().toNanos();
                while (tally.completed.sum() < plan.jobs()) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("timed out after " + options.rowTimeout().toSeconds() + " s with "
                                + tally.completed.sum() + " of " + plan.jobs() + " jobs completed");
                    }
                    Thread.sleep(1);
                }
            }
            long end = System.nanoTime();
            double cpuMs = ProcCpu.millis(pid) - cpu0;
            long finishRss = ProcCpu.rssKb(pid);
            double seconds = (end - start) / 1e9;
            runnel.stop(Duration.ofSeconds(10));
            Optional<String> problem = work.check(plan.jobs());
            if (problem.isPresent()) {
                throw new IllegalStateException(problem.get());
            }
            if (options.deleteCompleted()) {
                long kept = runnel.jobCounts().stream()
                        .filter(c -> c.queue().equals(queue) && c.state() == JobState.COMPLETED)
                        .mapToLong(JobCount::count).sum();
                if (kept > 0) {
                    throw new IllegalStateException(kept + " completed jobs were kept, where none should be");
                }
            }
            return row(plan, mode, seconds, insertSeconds, startRss, finishRss, 100 * cpuMs / (seconds * 1000),
                    tally, inserted);
        } finally {
            runnel.stop(Duration.ofSeconds(10));
        }
    }

    private static TableRow row(Plan plan, Runnel.Delivery mode, double seconds, double insertSeconds, long startRss,
            long finishRss, double cpuPercent, BenchJobs.Tally tally, IdBitmap inserted) {
        TableWorkload w = plan.workload();
        Optional<Double> limit = w.limitSeconds(plan.jobs(), plan.concurrency());
        Optional<Double> seed = w.seedFigure(plan.concurrency(), mode);
        Optional<String> target = Optional.empty();
        Optional<Boolean> met = Optional.empty();
        if (limit.isPresent()) {
            double most = limit.get() * TableWorkload.LIMIT_SLACK;
            target = Optional.of(String.format(Locale.ROOT, "<= %.2f s (limit %.2f s + 10%%)", most, limit.get()));
            met = Optional.of(seconds <= most);
        } else if (w == TableWorkload.IDLE) {
            target = Optional.of("cpu <= " + TableWorkload.IDLE_CPU_TARGET + "%");
            met = Optional.of(cpuPercent <= TableWorkload.IDLE_CPU_TARGET);
        } else if ((w == TableWorkload.NOOP || w == TableWorkload.FILE) && seed.isPresent()) {
            double most = seed.get() / TableWorkload.SPEEDUP_TARGET;
            target = Optional.of(String.format(Locale.ROOT, "<= %.2f s (reference / 10)", most));
            met = Optional.of(seconds <= most);
        }
        return new TableRow(w, plan.concurrency(), mode, plan.jobs(), seconds, insertSeconds, startRss, finishRss,
                cpuPercent, tally.completed.sum(), tally.duplicates.get(), inserted.countMissingIn(tally.worked), limit,
                seed, target, met, Optional.empty());
    }

    /** The table's one JSON line: every row, and whether every row ran exactly once and met its target. */
    public static String toJson(List<TableRow> rows, String store, Duration idle, long warmupJobs,
            boolean deleteCompleted) {
        return new JsonLine()
                .put("scenario", "jobs-table")
                .put("store", store)
                .put("idle_seconds", idle.toMillis() / 1e3)
                .put("warmup_jobs", warmupJobs)
                .put("delete_completed", deleteCompleted)
                .put("exact", rows.stream().allMatch(TableRow::exact))
                .put("targets_met", rows.stream().filter(r -> r.met().isPresent()).allMatch(r -> r.met().get()))
                .put("rows_not_run", rows.stream().filter(r -> r.error().isPresent()).count())
                .put("rows", rows.stream().map(TableRow::toJson).toList())
                .toString();
    }
}
