package dev.runnel.cli;

import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code runnel workflows list|get|cancel|retry}. */
@Command(name = "workflows", mixinStandardHelpOptions = true,
        description = "List and inspect workflows (jobs that run after one another, as a graph), cancel them, and"
                + " retry them from their failed tasks.",
        subcommands = {WorkflowsCommand.ListWorkflows.class, WorkflowsCommand.Get.class, WorkflowsCommand.Cancel.class,
                WorkflowsCommand.Retry.class})
final class WorkflowsCommand {
    /** The most a listing shows, as {@code Workflows.list} takes it. */
    static final int MAX_LIMIT = 1_000;

    private WorkflowsCommand() {}

    /**
     * An insert-only client on {@code driver}, which it closes. A driver that stores no workflows
     * (Redis) still answers: its listings are empty and every workflow is missing.
     */
    static Runnel client(Driver driver) {
        return Runnel.builder().driver(driver).build();
    }

    /** That there is no {@code what} {@code id}, and why when the database stores none ({@code plural}). */
    static NotFoundException missing(Driver driver, String what, String plural, long id) {
        return new NotFoundException("no " + what + " " + id + (driver.supportsLinks() ? ""
                : " (this " + driver.name() + " database stores no " + plural + ")"));
    }

    /** The states in the order a workflow moves through them, for counts by state. */
    static final List<JobState> STATES = List.of(JobState.PENDING, JobState.SCHEDULED, JobState.AVAILABLE,
            JobState.RUNNING, JobState.RETRYABLE, JobState.COMPLETED, JobState.CANCELLED, JobState.DISCARDED);

    /** Its tasks by state for people, such as {@code 2 completed, 1 running, 1 pending}; states with none left out. */
    static String byState(WorkflowRow w) {
        List<String> parts = new ArrayList<>();
        for (JobState s : STATES) {
            int n = w.tasks().getOrDefault(s, 0);
            if (n > 0) {
                parts.add(n + " " + s.dbName());
            }
        }
        if (w.deletedTasks() > 0) {
            parts.add(w.deletedTasks() + " deleted");
        }
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }

    static String state(WorkflowRow w) {
        return w.state().name().toLowerCase(Locale.ROOT);
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Workflows, newest first, with where each stands and its tasks counted by state. A workflow"
                    + " is running until every task is final; then completed, failed (a task was discarded) or"
                    + " cancelled.")
    static final class ListWorkflows implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
                description = "At most this many, 1 to 1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--before", paramLabel = "ID",
                description = "The page of workflows older than this id: the last id of the page before.")
        Long before;

        @Option(names = "--json", description = "Print a JSON array.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Flags.between("--limit", limit, 1, MAX_LIMIT);
            if (before != null) {
                Flags.atLeast("--before", before, 1);
            }
            PrintWriter out = spec.commandLine().getOut();
            Driver driver = database.open();
            try (Runnel runnel = client(driver)) {
                List<WorkflowRow> rows = before == null ? runnel.workflows().list(limit)
                        : runnel.workflows().list(limit, before);
                if (json) {
                    out.println(JsonOut.text(JsonOut.workflows(rows)));
                    return 0;
                }
                Table table = new Table(new String[] {"ID", "NAME", "STATE", "TASKS", "BY STATE", "CREATED"},
                        new int[] {20, 40, 10, 6, 80, 27});
                for (WorkflowRow w : rows) {
                    table.add(String.valueOf(w.id()), w.name(), state(w), String.valueOf(w.taskCount()), byState(w),
                            w.createdAt().toString());
                }
                table.print(out);
                if (rows.isEmpty()) {
                    out.println(!driver.supportsLinks() ? "(no workflows: this " + driver.name()
                            + " database stores none)" : before != null ? "(no workflows on this page)"
                            : "(no workflows)");
                } else {
                    out.println("(" + rows.size() + " workflows" + (rows.size() == limit
                            ? "; the page after: --before " + rows.getLast().id() : "") + ")");
                }
            }
            return 0;
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = "One workflow and its tasks: each task's job, kind and state, the tasks it runs after, and"
                    + " what it does when one of those fails (cancel: it is cancelled too; run: it runs all the same).")
    static final class Get implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Parameters(index = "0", paramLabel = "ID", description = "The workflow's id.")
        long id;

        @Option(names = "--json", description = "Print a JSON object.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Driver driver = database.open();
            try (Runnel runnel = client(driver)) {
                WorkflowRow w = runnel.workflows().get(id).orElseThrow(() -> missing(driver, "workflow", "workflows", id));
                List<WorkflowTaskRow> tasks = runnel.workflows().tasks(id);
                if (json) {
                    out.println(JsonOut.text(JsonOut.workflow(w, tasks)));
                    return 0;
                }
                out.printf("workflow %d  %s  %s%n", w.id(), w.name(), state(w));
                out.println("created " + w.createdAt() + ", " + w.taskCount() + " tasks: " + byState(w));
                Table table = new Table(new String[] {"TASK", "JOB", "KIND", "STATE", "AFTER", "ON FAILURE"},
                        new int[] {40, 20, 30, 10, 60, 10});
                for (WorkflowTaskRow t : tasks) {
                    table.add(t.name(), String.valueOf(t.jobId()), t.kind(),
                            t.state().map(JobState::dbName).orElse("deleted"),
                            t.after().isEmpty() ? "-" : String.join(", ", t.after()),
                            t.onDependencyFailure().name().toLowerCase(Locale.ROOT));
                }
                table.print(out);
            }
            return 0;
        }
    }

    /** Cancels or retries one workflow: the two commands differ in the call and the words. */
    abstract static class Change implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Parameters(index = "0", paramLabel = "ID", description = "The workflow's id.")
        long id;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Driver driver = database.open();
            try (Runnel runnel = client(driver)) {
                if (runnel.workflows().get(id).isEmpty()) {
                    throw missing(driver, "workflow", "workflows", id);
                }
                int n = apply(runnel.workflows(), id);
                spec.commandLine().getOut().println("workflow " + id + ": " + said(n));
            }
            return 0;
        }

        abstract int apply(dev.runnel.Workflows workflows, long id);

        /** What it did, for {@code n} tasks changed. */
        abstract String said(int n);
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel a workflow: every task not final yet is cancelled (a running one is told to stop by"
                    + " the client running it). Says how many tasks it cancelled.")
    static final class Cancel extends Change {
        @Override
        int apply(dev.runnel.Workflows workflows, long id) {
            return workflows.cancel(id);
        }

        @Override
        String said(int n) {
            return n == 0 ? "nothing to cancel: every task is final already"
                    : "cancelled " + n + (n == 1 ? " task" : " tasks") + " that had not finished";
        }
    }

    @Command(name = "retry", mixinStandardHelpOptions = true,
            description = "Retry a workflow from its failed tasks: every cancelled or discarded task runs again once the"
                    + " tasks it runs after are done, and the tasks after it follow. Says how many tasks it retried.")
    static final class Retry extends Change {
        @Override
        int apply(dev.runnel.Workflows workflows, long id) {
            return workflows.retry(id);
        }

        @Override
        String said(int n) {
            return n == 0 ? "nothing to retry: no task is cancelled or discarded"
                    : "retried " + n + (n == 1 ? " task" : " tasks") + " that were cancelled or discarded";
        }
    }

    /** Counts by state as JSON: every state, 0 when it has none, and {@code deleted}. */
    static Map<String, Integer> counts(WorkflowRow w) {
        Map<String, Integer> m = new java.util.LinkedHashMap<>();
        for (JobState s : STATES) {
            m.put(s.dbName(), w.tasks().getOrDefault(s, 0));
        }
        m.put("deleted", w.deletedTasks());
        return m;
    }
}
