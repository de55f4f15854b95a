package dev.runnel.cli;

import dev.runnel.BatchRow;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code runnel batches list|get}. */
@Command(name = "batches", mixinStandardHelpOptions = true,
        description = "List and inspect batches (groups of jobs with callbacks): how many of their jobs ended how, and"
                + " the callback jobs inserted so far.",
        subcommands = {BatchesCommand.ListBatches.class, BatchesCommand.Get.class})
final class BatchesCommand {
    private BatchesCommand() {}

    /** The callback jobs inserted so far, such as {@code success 41, complete 42}; {@code -} for none. */
    static String callbacks(BatchRow b) {
        List<String> parts = new ArrayList<>();
        b.successJob().ifPresent(id -> parts.add("success " + id));
        b.completeJob().ifPresent(id -> parts.add("complete " + id));
        b.discardJob().ifPresent(id -> parts.add("discard " + id));
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Batches, newest first, with their jobs counted: total, completed, cancelled, discarded,"
                    + " deleted before they finished, and unfinished; and their callback jobs.")
    static final class ListBatches implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
                description = "At most this many, 1 to 1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--before", paramLabel = "ID",
                description = "The page of batches older than this id: the last id of the page before.")
        Long before;

        @Option(names = "--json", description = "Print a JSON array.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Flags.between("--limit", limit, 1, WorkflowsCommand.MAX_LIMIT);
            if (before != null) {
                Flags.atLeast("--before", before, 1);
            }
            PrintWriter out = spec.commandLine().getOut();
            Driver driver = database.open();
            try (Runnel runnel = WorkflowsCommand.client(driver)) {
                List<BatchRow> rows = before == null ? runnel.batches().list(limit) : runnel.batches().list(limit, before);
                if (json) {
                    out.println(JsonOut.text(JsonOut.batches(rows)));
                    return 0;
                }
                Table table = new Table(new String[] {"ID", "NAME", "TOTAL", "COMPLETED", "CANCELLED", "DISCARDED",
                        "DELETED", "UNFINISHED", "CALLBACKS", "CREATED"},
                        new int[] {20, 40, 12, 12, 12, 12, 12, 12, 60, 27});
                for (BatchRow b : rows) {
                    table.add(String.valueOf(b.id()), b.name().orElse("-"), String.valueOf(b.total()),
                            String.valueOf(b.completed()), String.valueOf(b.cancelled()), String.valueOf(b.discarded()),
                            String.valueOf(b.deleted()), String.valueOf(b.unfinished()), callbacks(b),
                            b.createdAt().toString());
                }
                table.print(out);
                if (rows.isEmpty()) {
                    out.println(!driver.supportsLinks() ? "(no batches: this " + driver.name() + " database stores none)"
                            : before != null ? "(no batches on this page)" : "(no batches)");
                } else {
                    out.println("(" + rows.size() + " batches" + (rows.size() == limit
                            ? "; the page after: --before " + rows.getLast().id() : "") + ")");
                }
            }
            return 0;
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = "One batch: its jobs counted by how they ended, whether it is complete, and its callback jobs"
                    + " (each inserted once, when its condition first held).")
    static final class Get implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Parameters(index = "0", paramLabel = "ID", description = "The batch's id.")
        long id;

        @Option(names = "--json", description = "Print a JSON object.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Driver driver = database.open();
            try (Runnel runnel = WorkflowsCommand.client(driver)) {
                BatchRow b = runnel.batches().get(id).orElseThrow(() -> WorkflowsCommand.missing(driver, "batch", "batches", id));
                if (json) {
                    out.println(JsonOut.text(JsonOut.batch(b)));
                    return 0;
                }
                out.printf("batch %d%s  %s%n", b.id(), b.name().map(n -> "  " + n).orElse(""),
                        b.isComplete() ? "complete" : "running");
                out.println("created " + b.createdAt());
                out.printf("%d jobs: %d completed, %d cancelled, %d discarded, %d deleted, %d unfinished%n", b.total(),
                        b.completed(), b.cancelled(), b.discarded(), b.deleted(), b.unfinished());
                out.println("callbacks " + callbacks(b));
            }
            return 0;
        }
    }
}
