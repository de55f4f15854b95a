package dev.runnel.cli;

import dev.runnel.bench.BenchDatabase;
import dev.runnel.bench.Drain;
import dev.runnel.bench.DrainResult;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runnel drain}: a multi-process drain with an exactly-once audit and the cost per job. */
@Command(name = "drain", mixinStandardHelpOptions = true,
        description = "Insert N no-op jobs, drain them with P fresh worker JVMs of T concurrent jobs, audit "
                + "exactly-once, and report jobs/s, SQL statements/job and CPU/job.")
final class DrainCommand implements Callable<Integer> {
    @Mixin
    DatabaseOption database;

    @Spec
    CommandSpec spec;

    @Option(names = "--jobs", paramLabel = "N", required = true, description = "Jobs to insert and drain.")
    long jobs;

    @Option(names = "--processes", paramLabel = "P", defaultValue = "2", description = "Worker JVMs (default: ${DEFAULT-VALUE}).")
    int processes;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "20",
            description = "Concurrent jobs per worker JVM (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--cooldown", paramLabel = "D", converter = DurationConverter.class, defaultValue = "100ms",
            description = "Each worker's fetch cooldown (default: ${DEFAULT-VALUE}).")
    Duration cooldown;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "50000",
            description = "Jobs each worker JVM works on a queue of its own before the timed drain, so that "
                    + "JIT compilation is not billed to it; 0 for none (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Mixin
    DeliveryOption delivery;

    @Option(names = "--timeout", paramLabel = "D", converter = DurationConverter.class, defaultValue = "10m",
            description = "Give up when the drain takes longer (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--json", description = "Print the figures as one JSON line, last.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (jobs < 1) {
            throw new IllegalArgumentException("--jobs must be at least 1, was " + jobs);
        }
        if (processes < 1 || processes > 64) {
            throw new IllegalArgumentException("--processes must be between 1 and 64, was " + processes);
        }
        if (threads < 1 || threads > 10_000) {
            throw new IllegalArgumentException("--threads must be between 1 and 10000, was " + threads);
        }
        if (warmup < 0 || warmup > 10_000_000) {
            throw new IllegalArgumentException("--warmup must be between 0 and 10000000, was " + warmup);
        }
        PrintWriter out = spec.commandLine().getOut();
        DrainResult result;
        try (BenchDatabase db = BenchDatabase.open(database.resolved())) {
            result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), jobs, processes, threads, cooldown,
                    warmup, delivery.delivery(), timeout), out).run();
        }
        result.printTable(out);
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return result.exact() ? 0 : Main.EXIT_FAILURE;
    }
}
