package dev.runnel.cli;

import dev.runnel.JobError;
import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runnel jobs list|get|cancel|retry|delete}: listings filtered by flags, newest first; one
 * job whole; and changes to jobs named by id or to every job a filter matches.
 */
@Command(name = "jobs", mixinStandardHelpOptions = true, description = "List, inspect, cancel, retry and delete jobs.",
        subcommands = {JobsCommand.ListJobs.class, JobsCommand.Get.class, JobsCommand.Cancel.class,
                JobsCommand.Retry.class, JobsCommand.Delete.class})
final class JobsCommand {
    /** Jobs a bulk change reads and changes per statement. */
    static final int BULK_PAGE = 1_000;

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "A page of the jobs the filters match, newest first (by id); every filter given must match.")
    static final class ListJobs implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Mixin
        JobFilterOptions filter;

        @Option(names = "--after", paramLabel = "ID", description = "The page after this id: the last id of the page before.")
        Long after;

        @Option(names = "--before", paramLabel = "ID", description = "The page before this id: the first id of the page after.")
        Long before;

        @Option(names = "--oldest-first", description = "Oldest first (ascending ids) instead of newest first.")
        boolean oldestFirst;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most this many, 1 to 10000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--json", description = "Print a JSON array.")
        boolean json;

        @Option(names = "--search-time", paramLabel = "DURATION", defaultValue = "50ms",
                converter = DurationConverter.class,
                description = "How long a filter no index serves (a kind or args value, a queue) reads before it prints what"
                        + " it found and where to go on (default: ${DEFAULT-VALUE}).")
        Duration searchTime;

        @Option(names = "--whole", description = "Read every id until the page is full, however long that takes.")
        boolean whole;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Flags.between("--limit", limit, 1, JobQuery.MAX_LIMIT);
            if (after != null && before != null) {
                throw new IllegalArgumentException("--after and --before cannot be given together");
            }
            JobQuery query = filter.query(limit).order(oldestFirst ? JobQuery.Order.OLDEST_FIRST : JobQuery.Order.NEWEST_FIRST);
            if (after != null) {
                query = query.afterId(Flags.atLeast("--after", after, 1));
            } else if (before != null) {
                query = query.beforeId(Flags.atLeast("--before", before, 1));
            }
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = QueuesCommand.client(database)) {
                JobPage page = whole ? JobPage.listed(query, runnel.jobs().list(query))
                        : runnel.jobs().search(query, searchTime);
                List<JobRow> jobs = page.jobs();
                String goOn = page.more().map(m -> m.afterId() > 0 ? "--after " + m.afterId() : "--before " + m.beforeId())
                        .orElse("");
                if (json) {
                    out.println(JsonOut.text(JsonOut.jobs(jobs)));
                    if (page.partial()) {
                        spec.commandLine().getErr().println("runnel: a partial page: the search stopped at its time"
                                + " budget; go on with " + goOn + ", or use --whole");
                    }
                    return 0;
                }
                Table table = new Table(new String[] {"ID", "KIND", "QUEUE", "STATE", "ATTEMPT", "CREATED", "FINALIZED",
                        "LAST ERROR"}, new int[] {20, 30, 20, 10, 9, 27, 27, 60});
                for (JobRow j : jobs) {
                    table.add(String.valueOf(j.id()), j.kind(), j.queue(), j.state().dbName(),
                            j.attempt() + "/" + j.maxAttempts(), j.createdAt().toString(),
                            j.finalizedAt().map(Instant::toString).orElse(""),
                            j.lastError().map(JobError::message).orElse(""));
                }
                table.print(out);
                if (page.partial()) {
                    out.println("(" + (jobs.isEmpty() ? "no jobs" : jobs.size() + " jobs") + " so far: the search stopped"
                            + " at its time budget; go on with " + goOn + ", or read every id with --whole)");
                } else if (jobs.isEmpty()) {
                    out.println("(no jobs" + (query.filtered() ? " match" : "") + (after != null || before != null
                            ? " on this page)" : ")"));
                } else {
                    out.println("(" + jobs.size() + " jobs; the page before: --before " + jobs.getFirst().id()
                            + (jobs.size() == limit ? "; the page after: --after " + jobs.getLast().id() : "") + ")");
                }
            }
            return 0;
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One job, whole: its output, and every attempt's error with its trace.")
    static final class Get implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Parameters(index = "0", paramLabel = "ID", description = "The job's id.")
        long id;

        @Option(names = "--json", description = "Print a JSON object.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = QueuesCommand.client(database)) {
                JobRow j = runnel.jobGet(id).orElseThrow(() -> new NotFoundException("no job " + id
                        + " (never inserted, deleted after its retention, or succeeded in an at-most-once queue)"));
                if (json) {
                    out.println(JsonOut.text(JsonOut.job(j)));
                    return 0;
                }
                out.printf("job %d  %s  queue %s  priority %d%n", j.id(), j.kind(), j.queue(), j.priority());
                out.printf("state %s, attempt %d of %d%n", j.state().dbName(), j.attempt(), j.maxAttempts());
                out.println("args " + j.args());
                out.println("created " + j.createdAt() + ", scheduled " + j.scheduledAt()
                        + j.attemptedAt().map(at -> ", attempted " + at).orElse("")
                        + j.finalizedAt().map(at -> ", finalized " + at).orElse(""));
                if (!j.attemptedBy().isEmpty()) {
                    out.println("attempted by " + String.join(", ", j.attemptedBy()));
                }
                if (!j.tags().isEmpty()) {
                    out.println("tags " + String.join(", ", j.tags()));
                }
                out.println("metadata " + JsonOut.text(JsonOut.metadataBesidesOutput(j)));
                j.output().ifPresent(output -> out.println("output " + output));
                for (JobError e : j.errors()) {
                    out.printf("error of attempt %d at %s: %s%n", e.attempt(), e.at(), e.message());
                    if (!e.trace().isBlank()) {
                        out.println(e.trace().stripTrailing().indent(4).stripTrailing());
                    }
                }
            }
            return 0;
        }
    }

    /**
     * A change to jobs named by id, each applied in turn (the first that fails ends the command),
     * or to every job the filters match, in pages; without ids, a filter or {@code --all} is
     * required, so that a bare command changes nothing.
     */
    abstract static class Change implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Mixin
        JobFilterOptions filter;

        @Parameters(arity = "0..*", paramLabel = "ID", description = "The jobs' ids; or none, and filters instead.")
        List<Long> ids = List.of();

        @Option(names = "--all", description = "With no filter: every job.")
        boolean all;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            String verb = spec.name();
            JobQuery query = filter.query(BULK_PAGE);
            if (!ids.isEmpty() && (query.filtered() || all)) {
                throw new IllegalArgumentException("give job ids or filters (or --all), not both");
            }
            if (ids.isEmpty() && !query.filtered() && !all) {
                throw new IllegalArgumentException(verb + " needs job ids, a filter (--state, --queue, --kind, --tag, --args,"
                        + " --min-id, --max-id, --created-from, --created-before) or --all for every job");
            }
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = QueuesCommand.client(database)) {
                if (ids.isEmpty()) {
                    out.println("jobs: " + applyAll(runnel.jobs(), query) + " " + (verb.equals("cancel") ? "cancelled"
                            : verb.equals("retry") ? "retried" : "deleted"));
                    return 0;
                }
                for (long id : ids) {
                    out.println(apply(runnel.jobs(), id));
                }
            }
            return 0;
        }

        /** Applies the change to job {@code id}; returns the line to print. */
        abstract String apply(dev.runnel.Jobs jobs, long id);

        /** Applies the change to every job {@code query} matches; returns how many it changed. */
        abstract int applyAll(dev.runnel.Jobs jobs, JobQuery query);
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel jobs, by id or by filters: final at once if not running; a running one is interrupted"
                    + " by its client. Prints how many changed.")
    static final class Cancel extends Change {
        @Override
        String apply(dev.runnel.Jobs jobs, long id) {
            JobRow j = jobs.cancel(id);
            return j.state() == JobState.RUNNING ? "job " + id + ": running; its client is told to cancel it"
                    : "job " + id + ": " + j.state().dbName();
        }

        @Override
        int applyAll(dev.runnel.Jobs jobs, JobQuery query) {
            return jobs.cancel(query);
        }
    }

    @Command(name = "retry", mixinStandardHelpOptions = true,
            description = "Make jobs that are not running available now, their attempts kept, by id or by filters.")
    static final class Retry extends Change {
        @Override
        String apply(dev.runnel.Jobs jobs, long id) {
            return "job " + id + ": " + jobs.retry(id).state().dbName();
        }

        @Override
        int applyAll(dev.runnel.Jobs jobs, JobQuery query) {
            return jobs.retry(query);
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete jobs that are not running, by id or by filters.")
    static final class Delete extends Change {
        @Override
        String apply(dev.runnel.Jobs jobs, long id) {
            jobs.delete(id);
            return "job " + id + ": deleted";
        }

        @Override
        int applyAll(dev.runnel.Jobs jobs, JobQuery query) {
            return jobs.delete(query);
        }
    }
}
