package dev.runnel.cli;

import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.bench.BareLoop;
import dev.runnel.bench.BenchDatabase;
import dev.runnel.bench.Bench;
import dev.runnel.bench.BenchResult;
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

    @Override
    public Integer call() throws Exception {
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
}
