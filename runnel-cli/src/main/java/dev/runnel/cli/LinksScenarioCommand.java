package dev.runnel.cli;

import dev.runnel.Drivers;
import dev.runnel.bench.LinkScenario;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code runnel scenario links}: a workflow and a batch at size, worked to the end with an exactly-once audit. */
@Command(name = "links", mixinStandardHelpOptions = true,
        description = "A workflow that fans out to --tasks tasks and back in to one, and a batch of --batch-jobs"
                + " jobs with success and complete callbacks, each worked to the end on a fresh database, with an"
                + " exactly-once audit and the time a batch's progress takes to read.")
final class LinksScenarioCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--database-url", paramLabel = "URL",
            description = "The job store (a Postgres schema of its own per part). Default: a fresh SQLite file.")
    String url;

    @Option(names = "--tasks", paramLabel = "N", defaultValue = "10000",
            description = "The workflow's fan-out (default: ${DEFAULT-VALUE}; 0 for no workflow).")
    int tasks;

    @Option(names = "--batch-jobs", paramLabel = "N", defaultValue = "1000000",
            description = "The batch's jobs (default: ${DEFAULT-VALUE}; 0 for no batch).")
    int batchJobs;

    @Option(names = "--chains", paramLabel = "N", defaultValue = "30",
            description = "Chains of 10 no-op tasks to time, from insert to the last task's completion, beside single"
                    + " jobs' insert-to-start (default: ${DEFAULT-VALUE}; 0 for none).")
    int chains;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "50",
            description = "Jobs at once (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--timeout", paramLabel = "D", converter = DurationConverter.class, defaultValue = "30m",
            description = "How long each part may take (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--json", description = "End with one JSON line of the figures.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (tasks < 0 || batchJobs < 0 || chains < 0 || tasks + batchJobs + chains == 0) {
            throw new IllegalArgumentException("--tasks, --batch-jobs and --chains must be 0 or more, and not all 0");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, was " + threads);
        }
        Path tmp = null;
        String store = url;
        if (store == null) {
            tmp = Files.createTempDirectory("runnel-links");
            store = "sqlite://" + tmp.resolve("links.db");
        } else if (!store.startsWith("postgres://") && !store.startsWith("postgresql://") && !store.startsWith("sqlite://")) {
            throw new IllegalArgumentException("--database-url must be a postgres:// or sqlite:// URL (the stores that"
                    + " keep workflows and batches), was '" + Drivers.redact(store) + "'");
        }
        PrintWriter out = spec.commandLine().getOut();
        try {
            List<LinkScenario.Part> parts = new LinkScenario(new LinkScenario.Options(store, tasks, batchJobs, threads,
                    timeout, chains), out).run();
            if (json) {
                out.println(LinkScenario.toJson(parts, Drivers.redact(store)));
            }
            out.flush();
            return parts.stream().allMatch(p -> p.missing() == 0 && p.duplicates() == 0) ? 0 : Main.EXIT_FAILURE;
        } finally {
            if (tmp != null) {
                try (var files = Files.walk(tmp)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
