package dev.runnel.cli;

import dev.runnel.Drivers;
import dev.runnel.Runnel;
import dev.runnel.bench.JobsTable;
import dev.runnel.bench.TableWorkload;
import dev.runnel.bench.TableRow;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runnel scenario jobs-table}: the jobs-table workloads, each row in both delivery
 * modes, with time, RSS, %CPU and an exactly-once audit.
 */
@Command(name = "jobs-table", mixinStandardHelpOptions = true,
        description = "The jobs-table workloads: no-op, HTTP, pg_sleep, file, CPU-bound and idle jobs at 10 to 100"
                + " at once, at least once and at most once, with time, RSS, %%CPU and an exactly-once audit.")
final class JobsTableCommand implements Callable<Integer> {
    /** Where the pg_sleep rows sleep unless told. */
    static final String DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

    @Spec
    CommandSpec spec;

    @Option(names = "--database-url", paramLabel = "URL",
            description = "The job store; each row gets a fresh one (a Postgres schema or Redis namespace of its own). "
                    + "Default: a fresh SQLite file per row in a temp dir.")
    String storeUrl;

    @Option(names = "--postgres-url", paramLabel = "URL", defaultValue = DEFAULT_POSTGRES_URL,
            description = "Where the pg_sleep rows run their sleeps (default: ${DEFAULT-VALUE}). When it cannot "
                    + "be reached, those rows say so and the rest run.")
    String postgresUrl;

    @Option(names = "--idle", paramLabel = "D", converter = DurationConverter.class, defaultValue = "3m",
            description = "How long each idle row idles (default: ${DEFAULT-VALUE}, as the reference run).")
    Duration idle;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "" + JobsTable.DEFAULT_WARMUP_JOBS,
            description = "No-op jobs worked before the first row, unmeasured, so that the JIT's work on the "
                    + "runtime's path is not all charged to the first row (default: ${DEFAULT-VALUE}; 0 for none).")
    long warmup;

    @Option(names = "--delete-completed",
            description = "The rows' clients keep no completed jobs (retention of completed jobs zero): each completion "
                    + "deletes its job, as the reference's processor keeps none (default: kept, as a client keeps them "
                    + "for 24 hours).")
    boolean deleteCompleted;

    @Option(names = "--json", description = "End with one JSON line of every row's figures.")
    boolean json;

    @Option(names = "--only", paramLabel = "WORKLOAD", split = ",",
            description = "Only these workloads' rows: no-op, http, pg_sleep, file, cpu, idle (default: every row).")
    List<String> only;

    @Override
    public Integer call() throws Exception {
        if (idle.isZero() || idle.isNegative()) {
            throw new IllegalArgumentException("--idle must be positive, was " + DurationConverter.format(idle));
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be 0 or more, was " + warmup);
        }
        checkUrl("--postgres-url", postgresUrl, true);
        if (storeUrl != null) {
            checkUrl("--database-url", storeUrl, false);
        }
        PrintWriter out = spec.commandLine().getOut();
        JobsTable table = new JobsTable(new JobsTable.Options(Optional.ofNullable(storeUrl), postgresUrl, idle,
                plans(), List.of(Runnel.Delivery.AT_LEAST_ONCE, Runnel.Delivery.AT_MOST_ONCE),
                Duration.ofMinutes(2), warmup, deleteCompleted), out);
        List<TableRow> rows = table.run();
        if (json) {
            out.println(JobsTable.toJson(rows, storeUrl == null ? "sqlite (a fresh file per row)" : Drivers.redact(storeUrl), idle,
                    warmup, deleteCompleted));
        }
        out.flush();
        return rows.stream().allMatch(TableRow::exact) ? 0 : Main.EXIT_FAILURE;
    }

    /** Every row, or those of the workloads {@code --only} names. */
    private List<JobsTable.Plan> plans() {
        if (only == null || only.isEmpty()) {
            return JobsTable.seedPlans();
        }
        java.util.Set<TableWorkload> wanted = java.util.EnumSet.noneOf(TableWorkload.class);
        for (String name : only) {
            wanted.add(java.util.Arrays.stream(TableWorkload.values()).filter(w -> w.label().equals(name.strip()))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("--only: no workload named '" + name
                            + "' (no-op, http, pg_sleep, file, cpu, idle)")));
        }
        return JobsTable.seedPlans().stream().filter(p -> wanted.contains(p.workload())).toList();
    }

    /** Rejects a URL of the wrong scheme before anything runs. */
    static void checkUrl(String flag, String url, boolean postgresOnly) {
        boolean pg = url.startsWith("postgres://") || url.startsWith("postgresql://");
        boolean other = url.startsWith("sqlite://") || url.startsWith("redis://") || url.startsWith("rediss://");
        if (!pg && (postgresOnly || !other)) {
            throw new IllegalArgumentException(flag + " must be a " + (postgresOnly ? "postgres://"
                    : "postgres://, sqlite:// or redis://") + " URL, was '" + Drivers.redact(url) + "'");
        }
    }
}
