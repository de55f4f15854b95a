package dev.runnel.cli;

import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.bench.BenchDatabase;
import dev.runnel.bench.Churn;
import dev.runnel.bench.ChurnResult;
import dev.runnel.bench.PostgresTableStats;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runnel churn}: many jobs through one Postgres table with the cleaner on, the table's
 * health reported per segment, and whether the last segment kept 90% of the first's rate.
 */
@Command(name = "churn", mixinStandardHelpOptions = true,
        description = "Work N no-op jobs through one Postgres table, a feeder keeping the queue topped up and the"
                + " cleaner deleting completed jobs; report jobs/s, table and index sizes, live and dead tuples per"
                + " million jobs (a tenth of smaller runs), and whether the last million ran at 90%% or more of the"
                + " first's rate. Exits 0 when it did and every job was worked exactly once.")
final class ChurnCommand implements Callable<Integer> {
    @Mixin
    DatabaseOption database;

    @Spec
    CommandSpec spec;

    @Option(names = "--jobs", paramLabel = "N", required = true, description = "Jobs to work through the table.")
    long jobs;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "" + Churn.DEFAULT_BATCH,
            description = "Jobs per insert; the feeder inserts whenever fewer than 2 x B wait (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--retention", paramLabel = "D", converter = DurationConverter.class, defaultValue = "0s",
            description = "How long completed jobs are kept before the cleaner deletes them (default: ${DEFAULT-VALUE}).")
    Duration retention;

    @Option(names = "--cleaner-interval", paramLabel = "D", converter = DurationConverter.class, defaultValue = "1s",
            description = "The cleaner's period, 100ms to 1h (default: ${DEFAULT-VALUE}).")
    Duration cleanerInterval;

    @Option(names = "--max-workers", paramLabel = "W", defaultValue = "1000",
            description = "Concurrent jobs (default: ${DEFAULT-VALUE}).")
    int maxWorkers;

    @Option(names = "--json", description = "Print the figures as one JSON line, last.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Flags.atLeast("--jobs", jobs, 1);
        Flags.between("--batch", batch, 1, 100_000);
        if (retention.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("--retention must be at most 1 day, was " + retention);
        }
        if (cleanerInterval.compareTo(Duration.ofMillis(100)) < 0 || cleanerInterval.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("--cleaner-interval must be between 100ms and 1h, was " + cleanerInterval);
        }
        Flags.between("--max-workers", maxWorkers, 1, RunnelBuilder.MAX_WORKERS);
        String url = database.resolved();
        if (!url.startsWith("postgres://") && !url.startsWith("postgresql://")) {
            throw new IllegalArgumentException("churn measures a Postgres table: give --database-url postgres://...");
        }
        PrintWriter out = spec.commandLine().getOut();
        ChurnResult result;
        CountDownLatch finished = new CountDownLatch(1);
        try (BenchDatabase db = BenchDatabase.open(url)) {
            PostgresTableStats table = db.tableStats().orElseThrow();
            Churn churn = new Churn(db.driver(), table,
                    new Churn.Options(jobs, batch, retention, cleanerInterval, maxWorkers), out);
            // Ctrl-C stops the feeder and waits while the queued jobs are worked off, audited, and
            // the run's schema dropped: a 10-million-job run must not leave its table behind.
            Thread hook = new Thread(() -> {
                churn.requestStop();
                try {
                    finished.await(90, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                result = churn.run();
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running, and waits for the schema to be dropped
                }
            }
        } finally {
            finished.countDown();
        }
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return result.passed() ? 0 : Main.EXIT_FAILURE;
    }
}
