package dev.runnel.cli;

import dev.runnel.QueueExecutor;
import dev.runnel.bench.EmbeddedLatency;
import dev.runnel.bench.EmbeddedLatencyResult;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code runnel scenario embedded-latency}: request tail latency with CPU-bound jobs in the
 * same JVM, on virtual threads and on the low-priority platform pool of embedded mode.
 */
@Command(name = "embedded-latency", mixinStandardHelpOptions = true,
        description = "Serve an HTTP endpoint whose handler makes ten 1 ms sleeps and measure its p50, p99 and p99.9"
                + " over N requests: (a) with no jobs; (b) with CPU-bound jobs, four per core at once, on virtual"
                + " threads at normal priority; (c) with the same jobs on platform threads at a lowered nice, as"
                + " embedded mode runs them. Jobs run through a client on a temporary SQLite file. Exits 0 when"
                + " (c)'s p99 is at most 1.5 times (a)'s.")
final class EmbeddedLatencyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "" + EmbeddedLatency.MIN_REQUESTS,
            description = "Requests measured per case, at least 2000 (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "4",
            description = "Turns the cases take, a share of the requests each, so that load from elsewhere on the"
                    + " machine falls on all cases alike (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "100",
            description = "Unmeasured requests before each round of each case (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--concurrency", paramLabel = "C", defaultValue = "4",
            description = "Clients sending requests at once, each waiting for its reply (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--nice", paramLabel = "N", defaultValue = "" + QueueExecutor.EMBEDDED_NICE,
            description = "The job threads' nice value in case (c), 0 to 19 (default: ${DEFAULT-VALUE}, embedded mode's).")
    int nice;

    @Option(names = "--job-ms", paramLabel = "MS", defaultValue = "5",
            description = "About how much CPU each job burns, in ms (default: ${DEFAULT-VALUE}).")
    int jobMillis;

    @Option(names = "--server-threads", paramLabel = "KIND", defaultValue = "platform",
            description = "What the server's handlers run on: platform (a fixed pool) or virtual (default: ${DEFAULT-VALUE}).")
    String serverThreads;

    @Option(names = "--json", description = "Print the figures as one JSON line, last.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Flags.between("--requests", requests, EmbeddedLatency.MIN_REQUESTS, 1_000_000);
        Flags.between("--rounds", rounds, 1, requests / 100);
        Flags.between("--warmup", warmup, 0, 100_000);
        Flags.between("--concurrency", concurrency, 1, 64);
        Flags.between("--nice", nice, 0, QueueExecutor.MAX_NICE);
        Flags.between("--job-ms", jobMillis, 1, 1_000);
        EmbeddedLatency.ServerThreads server = switch (serverThreads.toLowerCase(Locale.ROOT)) {
            case "platform" -> EmbeddedLatency.ServerThreads.PLATFORM;
            case "virtual" -> EmbeddedLatency.ServerThreads.VIRTUAL;
            default -> throw new IllegalArgumentException("--server-threads must be platform or virtual, was "
                    + serverThreads);
        };
        PrintWriter out = spec.commandLine().getOut();
        EmbeddedLatencyResult result = new EmbeddedLatency(
                new EmbeddedLatency.Options(requests, rounds, warmup, concurrency, nice, jobMillis, server), out).run();
        out.printf(Locale.ROOT, "(c) p99 / (a) p99 = %.2f (target at most %.1f): %s%n", result.ratio(),
                EmbeddedLatency.TARGET_RATIO, result.targetMet() ? "met" : "NOT met");
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return result.targetMet() ? 0 : Main.EXIT_FAILURE;
    }
}
