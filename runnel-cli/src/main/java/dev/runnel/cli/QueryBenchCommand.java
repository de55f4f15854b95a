package dev.runnel.cli;

import dev.runnel.bench.QueryBench;
import dev.runnel.bench.QueryBenchResult;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runnel query-bench}: the listings and counts timed on a large Postgres job table. */
@Command(name = "query-bench", mixinStandardHelpOptions = true,
        description = "Load N jobs of a busy day (mostly completed) into a Postgres job table of its own schema with"
                + " SQL, vacuum and analyze it, then time every listing (pages both ways, each filter alone and"
                + " together) and the counts, each several times; print the median and slowest of each. Exits 0"
                + " when every listing and the fast counts answered within " + (int) QueryBench.TARGET_MS + " ms.")
final class QueryBenchCommand implements Callable<Integer> {
    @Mixin
    DatabaseOption database;

    @Spec
    CommandSpec spec;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "10000000", description = "Jobs in the table (default: ${DEFAULT-VALUE}).")
    long jobs;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "11",
            description = "Timed runs of each query, 1 to 1000 (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--schema", paramLabel = "NAME", defaultValue = "querybench",
            description = {"The harness's own schema, made, marked and dropped by it (default: ${DEFAULT-VALUE}).",
                    "public, and any schema it did not make, is refused."})
    String schema;

    @Option(names = "--keep", description = "Keep the schema and its jobs at the end.")
    boolean keep;

    @Option(names = "--reuse", description = "Reuse a kept schema that holds N jobs instead of loading anew.")
    boolean reuse;

    @Option(names = "--search-indexes",
            description = "Add the indexes Runnel leaves out (kind; args, GIN) that a search for a rare kind or args value needs.")
    boolean searchIndexes;

    @Option(names = "--json", description = "Print the figures as one JSON line, last.")
    boolean json;

    @Override
    public Integer call() {
        Flags.between("--jobs", jobs, 10_000, 1_000_000_000);
        Flags.between("--runs", runs, 1, 1_000);
        String url = database.resolved();
        if (!url.startsWith("postgres://") && !url.startsWith("postgresql://")) {
            throw new IllegalArgumentException("query-bench measures a Postgres table: give --database-url postgres://...");
        }
        PrintWriter out = spec.commandLine().getOut();
        QueryBenchResult result = new QueryBench(url, new QueryBench.Options(jobs, runs, schema, keep, reuse, searchIndexes), out).run();
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return result.passed() ? 0 : Main.EXIT_FAILURE;
    }
}
