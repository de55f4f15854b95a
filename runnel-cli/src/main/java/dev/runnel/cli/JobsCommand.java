package dev.runnel.cli;

import dev.runnel.JobError;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runnel jobs list|get}. */
@Command(name = "jobs", mixinStandardHelpOptions = true, description = "List and inspect jobs.",
        subcommands = {JobsCommand.ListJobs.class, JobsCommand.Get.class, JobsCommand.Cancel.class,
                JobsCommand.Retry.class, JobsCommand.Delete.class})
final class JobsCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "A page of jobs by ascending id.")
    static final class ListJobs implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Option(names = "--state", split = ",", paramLabel = "STATE",
                description = "Only these states (repeat or separate by commas): available, scheduled, running,"
                        + " retryable, completed, cancelled, discarded.")
        List<String> states = List.of();

        @Option(names = "--queue", paramLabel = "QUEUE", description = "Only this queue.")
        String queue;

        @Option(names = "--after", paramLabel = "ID", defaultValue = "0", description = "Only ids after this one: the last id of the previous page.")
        long after;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most this many, 1 to 10000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--json", description = "Print a JSON array.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Set<JobState> wanted = EnumSet.noneOf(JobState.class);
            for (String s : states) {
                wanted.add(state(s));
            }
            Flags.between("--limit", limit, 1, 10_000);
            Flags.atLeast("--after", after, 0);
            JobQuery query = new JobQuery(wanted, Optional.ofNullable(queue), after, limit);
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = QueuesCommand.client(database)) {
                List<JobRow> jobs = runnel.jobList(query);
                if (json) {
                    out.println(JsonOut.text(JsonOut.jobs(jobs)));
                    return 0;
                }
                Table table = new Table(new String[] {"ID", "KIND", "QUEUE", "STATE", "ATTEMPT", "SCHEDULED", "FINALIZED",
                        "LAST ERROR"}, new int[] {20, 30, 20, 10, 9, 27, 27, 60});
                for (JobRow j : jobs) {
                    table.add(String.valueOf(j.id()), j.kind(), j.queue(), j.state().dbName(),
                            j.attempt() + "/" + j.maxAttempts(), j.scheduledAt().toString(),
                            j.finalizedAt().map(Instant::toString).orElse(""),
                            j.lastError().map(JobError::message).orElse(""));
                }
                table.print(out);
                if (jobs.size() == limit) {
                    out.println("(more after id " + jobs.getLast().id() + ": --after " + jobs.getLast().id() + ")");
                }
            }
            return 0;
        }

        private static JobState state(String name) {
            for (JobState s : JobState.values()) {
                if (s.dbName().equals(name.strip().toLowerCase(Locale.ROOT))) {
                    return s;
                }
            }
            throw new IllegalArgumentException("--state must be one of available, scheduled, running, retryable,"
                    + " completed, cancelled, discarded, was '" + name + "'");
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

    /** A change to jobs named by id: each is applied in turn, and the first that fails ends the command. */
    abstract static class Change implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Parameters(arity = "1..*", paramLabel = "ID", description = "The jobs' ids.")
        List<Long> ids;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = QueuesCommand.client(database)) {
                for (long id : ids) {
                    out.println(apply(runnel.jobs(), id));
                }
            }
            return 0;
        }

        /** Applies the change to job {@code id}; returns the line to print. */
        abstract String apply(dev.runnel.Jobs jobs, long id);
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel jobs: final at once if not running; a running one is interrupted by its client.")
    static final class Cancel extends Change {
        @Override
        String apply(dev.runnel.Jobs jobs, long id) {
            JobRow j = jobs.cancel(id);
            return j.state() == JobState.RUNNING ? "job " + id + ": running; its client is told to cancel it"
                    : "job " + id + ": " + j.state().dbName();
        }
    }

    @Command(name = "retry", mixinStandardHelpOptions = true,
            description = "Make jobs that are not running available now, their attempts kept.")
    static final class Retry extends Change {
        @Override
        String apply(dev.runnel.Jobs jobs, long id) {
            return "job " + id + ": " + jobs.retry(id).state().dbName();
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete jobs that are not running.")
    static final class Delete extends Change {
        @Override
        String apply(dev.runnel.Jobs jobs, long id) {
            jobs.delete(id);
            return "job " + id + ": deleted";
        }
    }
}
