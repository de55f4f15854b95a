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
                    + "JIT compilation is not billed to it; each takes --job-time, up to 1 ms; 0 for none "
                    + "(default: ${DEFAULT-VALUE}).")
    int warmup;

    @Mixin
    DeliveryOption delivery;

    @Option(names = "--timeout", paramLabel = "D", converter = DurationConverter.class, defaultValue = "10m",
            description = "Give up when the drain takes longer (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--kill-worker-after", paramLabel = "D", converter = DurationConverter.class, defaultValue = "0s",
            description = "SIGKILL one worker JVM this long after the drain starts; the others must finish every job,"
                    + " those it was running through the rescuer once its heartbeat expires (default: never).")
    Duration killWorkerAfter;

    @Option(names = "--job-time", paramLabel = "D", converter = DurationConverter.class,
            description = "How long each job takes (a sleep). Default: none; with --kill-worker-after, long enough"
                    + " that the drain lasts about twice the kill time, so that the kill lands mid-drain.")
    Duration jobTime;

    @Option(names = "--global-limit", paramLabel = "N", defaultValue = "0",
            description = "Give the queue a global limit of N running jobs across all worker JVMs, and report the most"
                    + " that ran at once (max_running); 0 for none (default).")
    int globalLimit;

    @Option(names = "--per-key", paramLabel = "N", defaultValue = "0",
            description = "Give the queue a per-key limit of N running jobs per key, over --keys keys (in each job's"
                    + " metadata), and report the most that ran at once for one key (max_running_per_key); 0 for none"
                    + " (default).")
    int perKey;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "1000", description = "Keys for --per-key (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--delete-completed",
            description = "The worker JVMs keep no completed jobs (retention of completed jobs zero), so that each"
                    + " completion deletes its job instead of recording it completed (default: kept, as a client"
                    + " keeps them for 24 hours).")
    boolean deleteCompleted;

    @Option(names = "--json", description = "Print the figures as one JSON line, last.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Flags.atLeast("--jobs", jobs, 1);
        Flags.between("--processes", processes, 1, 64);
        Flags.between("--threads", threads, 1, 10_000);
        Flags.between("--warmup", warmup, 0, 10_000_000);
        Flags.between("--global-limit", globalLimit, 0, 100_000);
        Flags.between("--per-key", perKey, 0, 100_000);
        Flags.between("--keys", keys, 1, 1_000_000);
        if ((globalLimit > 0 || perKey > 0) && delivery.delivery() == dev.runnel.Runnel.Delivery.AT_MOST_ONCE) {
            throw new IllegalArgumentException("--global-limit and --per-key need at-least-once delivery: an at-most-once"
                    + " claim deletes its jobs, leaving none to count");
        }
        if (killWorkerAfter.isNegative() || killWorkerAfter.compareTo(timeout) >= 0) {
            throw new IllegalArgumentException("--kill-worker-after must be between 0 and --timeout, was " + killWorkerAfter);
        }
        boolean kills = !killWorkerAfter.isZero();
        if (kills && processes < 2) {
            throw new IllegalArgumentException("--kill-worker-after needs --processes of 2 or more: the others finish the jobs");
        }
        if (kills && delivery.delivery() == dev.runnel.Runnel.Delivery.AT_MOST_ONCE) {
            throw new IllegalArgumentException("--kill-worker-after needs at-least-once delivery: at most once, the jobs a"
                    + " killed worker was running are lost by design");
        }
        if (deleteCompleted && delivery.delivery() == dev.runnel.Runnel.Delivery.AT_MOST_ONCE) {
            throw new IllegalArgumentException("--delete-completed needs at-least-once delivery: an at-most-once claim"
                    + " deletes its jobs already");
        }
        if (deleteCompleted && kills) {
            throw new IllegalArgumentException("--delete-completed cannot go with --kill-worker-after: with a worker"
                    + " killed, the audit reads which jobs completed from their rows");
        }
        if (jobTime != null && (jobTime.isNegative() || jobTime.compareTo(Duration.ofMinutes(1)) > 0)) {
            throw new IllegalArgumentException("--job-time must be between 0 and 1m, was " + jobTime);
        }
        Duration perJob = jobTime != null ? jobTime : kills ? killTimeJobTime() : Duration.ZERO;
        PrintWriter out = spec.commandLine().getOut();
        DrainResult result;
        try (BenchDatabase db = BenchDatabase.open(database.resolved())) {
            result = new Drain(db.driver(), db.stats(), new Drain.Options(db.url(), jobs, processes, threads, cooldown,
                    warmup, delivery.delivery(), timeout, perJob, killWorkerAfter, globalLimit, perKey, keys,
                    deleteCompleted), out).run();
        }
        result.printTable(out);
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return result.exact() ? 0 : Main.EXIT_FAILURE;
    }

    /**
     * A job time that makes the drain last about twice the kill time, so that the kill lands in the
     * middle of it: P x T slots each working N / (P x T) jobs of this length. At least 1 ms.
     */
    private Duration killTimeJobTime() {
        long millis = killWorkerAfter.toMillis() * 2 * processes * threads / jobs;
        return Duration.ofMillis(Math.max(1, millis));
    }
}
