package dev.runnel.cli;

import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.bench.BareLoop;
import dev.runnel.bench.BenchDatabase;
import dev.runnel.bench.Bench;
import dev.runnel.bench.BenchResult;
import dev.runnel.bench.Latency;
import dev.runnel.bench.LatencyResult;
import dev.runnel.RunnelConnectException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
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

    @Option(names = "--max-workers", paramLabel = "W", defaultValue = "" + Bench.DEFAULT_MAX_WORKERS,
            description = "Concurrent jobs (default: ${DEFAULT-VALUE}).")
    int maxWorkers;

    @Mixin
    DeliveryOption delivery;

    @Option(names = "--bare", description = "Instead of the runtime, run the bare loop: threads that only claim "
            + "batches of " + BareLoop.BATCH + " and complete them (needs --num-total-jobs).")
    boolean bare;

    @Option(names = "--bare-threads", paramLabel = "T", defaultValue = "8",
            description = "Threads of the bare loop (default: ${DEFAULT-VALUE}).")
    int bareThreads;

    @Option(names = "--json", description = "Print a JSON summary as the last line.")
    boolean json;

    @Option(names = "--latency", description = "Instead, measure the latency from insert to start: jobs inserted one "
            + "at a time into an idle client, on SQLite (same process) and Postgres (another process, woken by "
            + "LISTEN/NOTIFY), and on Redis too (another process, woken by pub/sub) when --database-url names one, in a"
            + " namespace of its own; also the time to each job's completion being stored. With --json, ends with a"
            + " JSON line per driver: p50, p99, p99.9 and max, and the completions' p50 and p99.")
    boolean latency;

    @Option(names = "--postgres-url", paramLabel = "URL", defaultValue = JobsTableCommand.DEFAULT_POSTGRES_URL,
            description = "With --latency: the Postgres to measure (default: ${DEFAULT-VALUE}).")
    String postgresUrl;

    @Option(names = "--latency-jobs", paramLabel = "N", defaultValue = "" + Latency.DEFAULT_JOBS,
            description = "With --latency: jobs per driver (default: ${DEFAULT-VALUE}).")
    int latencyJobs;

    @Option(names = "--latency-warmup", paramLabel = "N", defaultValue = "" + Latency.DEFAULT_WARMUP,
            description = "With --latency: jobs run one after another before the measured ones, unmeasured, so that"
                    + " those meet a warmed-up JVM (default: ${DEFAULT-VALUE}; the first job after a start is"
                    + " measured apart).")
    int latencyWarmup;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "" + Latency.DEFAULT_RATE,
            description = "With --latency: jobs inserted per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--load", paramLabel = "R", defaultValue = "0",
            description = "With --latency: besides the measured jobs, insert R jobs per second into the same queue"
                    + " (in bulk every 10 ms), worked by the same client, so that the measured jobs meet a busy"
                    + " client (default: 0, an idle one).")
    double load;

    @Override
    public Integer call() throws Exception {
        if (latency) {
            return latency();
        }
        if (totalJobs != null) {
            Flags.atLeast("--num-total-jobs", totalJobs, 1);
        }
        Flags.between("--max-workers", maxWorkers, 1, RunnelBuilder.MAX_WORKERS);
        if (bare && totalJobs == null) {
            throw new IllegalArgumentException("--bare needs --num-total-jobs");
        }
        Flags.between("--bare-threads", bareThreads, 1, 1_000);
        if (totalJobs == null && duration == null && System.console() == null) {
            // Without a terminal nobody can press Ctrl-C: refuse to run forever.
            throw new IllegalArgumentException("give --num-total-jobs or --duration when not on a terminal");
        }
        PrintWriter out = spec.commandLine().getOut();
        BenchResult result;
        try (BenchDatabase db = BenchDatabase.open(database.resolved())) {
            Driver driver = db.driver();
            if (bare) {
                result = new BareLoop(driver, totalJobs, bareThreads, out).run();
            } else {
                Bench bench = new Bench(driver, new Bench.Options(totalJobs == null ? 0 : totalJobs, duration,
                        maxWorkers, delivery.delivery()), out);
                Thread hook = new Thread(bench::requestStop);
                Runtime.getRuntime().addShutdownHook(hook);
                result = bench.run();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook already ran
                }
            }
        }
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return result.exact() ? 0 : Main.EXIT_FAILURE;
    }

    private int latency() throws Exception {
        Flags.between("--latency-jobs", latencyJobs, 1, 100_000);
        Flags.between("--latency-warmup", latencyWarmup, 0, 1_000_000);
        if (!(rate > 0 && rate <= 1_000)) {
            throw new IllegalArgumentException("--rate must be above 0 and at most 1000, was " + rate);
        }
        if (!(load >= 0 && load <= Latency.MAX_LOAD)) {
            throw new IllegalArgumentException("--load must be from 0 to " + (long) Latency.MAX_LOAD + ", was " + load);
        }
        JobsTableCommand.checkUrl("--postgres-url", postgresUrl, true);
        String url = database.resolved();
        boolean redis = url.startsWith("redis://") || url.startsWith("rediss://");
        PrintWriter out = spec.commandLine().getOut();
        Latency bench = new Latency(new Latency.Options(latencyJobs, rate, latencyWarmup, 10, load,
                Duration.ofSeconds(60)), out);
        List<LatencyResult> results = new ArrayList<>();
        Map<String, String> notRun = new LinkedHashMap<>();
        if (redis) {
            // First, so that a bad URL or a Redis that cannot be reached fails the command before anything ran.
            results.add(bench.runRedis(url));
        }
        results.add(bench.runSqlite());
        try {
            results.add(bench.runPostgres(postgresUrl));
        } catch (RunnelConnectException e) {
            notRun.put("postgres", "cannot be reached: " + e.getMessage());
            out.println("latency postgres: NOT RUN: " + e.getMessage());
        }

        if (json) {
            Latency.toJsonLines(results, notRun).forEach(out::println);
        }
        out.flush();
        return results.stream().allMatch(LatencyResult::exact) ? 0 : Main.EXIT_FAILURE;
    }
}
