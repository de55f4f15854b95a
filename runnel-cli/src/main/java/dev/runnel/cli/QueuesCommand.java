package dev.runnel.cli;

import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.QueueRow;
import dev.runnel.Queues;
import dev.runnel.Runnel;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runnel queues list|pause|resume}. */
@Command(name = "queues", mixinStandardHelpOptions = true, description = "List, pause and resume queues, cluster-wide.",
        subcommands = {QueuesCommand.ListQueues.class, QueuesCommand.Pause.class, QueuesCommand.Resume.class})
final class QueuesCommand {

    /** An insert-only client on the command's database: it reads and changes, and works nothing. */
    static Runnel client(DatabaseOption database) {
        return Runnel.builder().driver(database.open()).build();
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every queue, paused or not, with its jobs by state.")
    static final class ListQueues implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Option(names = "--json", description = "Print a JSON array.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = client(database)) {
                List<QueueRow> queues = runnel.queues().list();
                List<JobCount> counts = runnel.jobCounts();
                if (json) {
                    out.println(JsonOut.text(JsonOut.queues(queues, counts)));
                    return 0;
                }
                Table table = new Table(new String[] {"QUEUE", "STATUS", "AVAILABLE", "RUNNING", "SCHEDULED", "RETRYABLE",
                        "COMPLETED", "DISCARDED", "CANCELLED"}, new int[] {40, 40, 12, 12, 12, 12, 12, 12, 12});
                for (QueueRow q : queues) {
                    table.add(q.name(), q.pausedAt().map(at -> "paused since " + at).orElse("active"),
                            count(counts, q, JobState.AVAILABLE), count(counts, q, JobState.RUNNING),
                            count(counts, q, JobState.SCHEDULED), count(counts, q, JobState.RETRYABLE),
                            count(counts, q, JobState.COMPLETED), count(counts, q, JobState.DISCARDED),
                            count(counts, q, JobState.CANCELLED));
                }
                table.print(out);
                if (queues.isEmpty()) {
                    out.println("(no queues: a queue is listed once a client that works it has started)");
                }
            }
            return 0;
        }

        private static String count(List<JobCount> counts, QueueRow q, JobState state) {
            return String.valueOf(counts.stream().filter(c -> c.queue().equals(q.name()) && c.state() == state)
                    .mapToLong(JobCount::count).sum());
        }
    }

    /** One queue by name, or all of them. */
    static final class Target {
        @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue.")
        String queue;

        @Option(names = "--all", required = true, description = "Every queue.")
        boolean all;
    }

    /** Pauses or resumes the target: the two commands differ in nothing else. */
    abstract static class Change implements Callable<Integer> {
        private final boolean pause;

        Change(boolean pause) {
            this.pause = pause;
        }

        @Mixin
        DatabaseOption database;

        @ArgGroup(multiplicity = "1")
        Target target;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = client(database)) {
                Queues queues = runnel.queues();
                String verb = pause ? "paused" : "resumed";
                if (target.all) {
                    out.println("queues: " + verb + " " + (pause ? queues.pauseAll() : queues.resumeAll()) + " queues");
                } else {
                    if (pause) {
                        queues.pause(target.queue);
                    } else {
                        queues.resume(target.queue);
                    }
                    out.println("queues: " + verb + " " + target.queue);
                }
            }
            return 0;
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = "Pause a queue (or --all) for every client until resumed: nothing more is fetched, running jobs finish.")
    static final class Pause extends Change {
        Pause() {
            super(true);
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused queue (or --all).")
    static final class Resume extends Change {
        Resume() {
            super(false);
        }
    }
}
