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

/** {@code runnel queues list|pause|resume|limit}. */
@Command(name = "queues", mixinStandardHelpOptions = true,
        description = "List, pause, resume and limit queues, cluster-wide.",
        subcommands = {QueuesCommand.ListQueues.class, QueuesCommand.Pause.class, QueuesCommand.Resume.class,
                QueuesCommand.Limit.class})
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
                // The fast counts: exact but for completed jobs of a large Postgres table, estimated (shown "~").
                List<JobCount> counts = runnel.jobs().counts();
                if (json) {
                    out.println(JsonOut.text(JsonOut.queues(queues, counts)));
                    return 0;
                }
                Table table = new Table(new String[] {"QUEUE", "STATUS", "LIMITS", "AVAILABLE", "RUNNING", "SCHEDULED",
                        "RETRYABLE", "COMPLETED", "DISCARDED", "CANCELLED"}, new int[] {40, 40, 30, 12, 12, 12, 12, 12, 12, 12});
                for (QueueRow q : queues) {
                    table.add(q.name(), q.pausedAt().map(at -> "paused since " + at).orElse("active"), limits(q),
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

        static String limits(QueueRow q) {
            List<String> parts = new java.util.ArrayList<>();
            q.globalLimit().ifPresent(n -> parts.add(n + " running"));
            q.rateLimit().ifPresent(r -> parts.add(r.jobs() + " per " + DurationConverter.format(r.period())));
            q.keyLimit().ifPresent(k -> parts.add(k.limit() + " per " + k.sourceName() + "." + k.field()
                    + k.rate().map(r -> " (" + r.jobs() + " per " + DurationConverter.format(r.period()) + " each)").orElse("")));
            return parts.isEmpty() ? "-" : String.join(", ", parts);
        }

        private static String count(List<JobCount> counts, QueueRow q, JobState state) {
            List<JobCount> matching = counts.stream().filter(c -> c.queue().equals(q.name()) && c.state() == state).toList();
            long sum = matching.stream().mapToLong(JobCount::count).sum();
            return (matching.stream().allMatch(JobCount::exact) ? "" : "~") + sum;
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

    @Command(name = "limit", mixinStandardHelpOptions = true,
            description = "Set or lift a queue's limits, for every client from its next claim: at most N of its jobs running"
                    + " at once (--global), at most N started per period (--rate N/PERIOD, e.g. 100/1m), and at most N"
                    + " running per key (--per-key N --key args.FIELD or metadata.FIELD), the keys taking turns.")
    static final class Limit implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue.")
        String queue;

        @Option(names = "--global", paramLabel = "N", description = "At most N jobs running at once across all clients.")
        Integer global;

        @Option(names = "--no-global", description = "Lift the global limit.")
        boolean noGlobal;

        @Option(names = "--rate", paramLabel = "N/PERIOD", description = "At most N jobs started in any PERIOD (e.g. 10/1s).")
        String rate;

        @Option(names = "--no-rate", description = "Lift the rate limit.")
        boolean noRate;

        @Option(names = "--per-key", paramLabel = "N", description = "At most N jobs running at once per key (with --key).")
        Integer perKey;

        @Option(names = "--key", paramLabel = "SOURCE.FIELD", description = "Where the key is: args.FIELD or metadata.FIELD.")
        String key;

        @Option(names = "--key-rate", paramLabel = "N/PERIOD",
                description = "With --per-key: at most N of each key's jobs started in any PERIOD (e.g. 5/1m).")
        String keyRate;

        @Option(names = "--no-per-key", description = "Lift the per-key limit.")
        boolean noPerKey;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            if ((global != null && noGlobal) || (rate != null && noRate)) {
                throw new IllegalArgumentException("--global and --no-global (or --rate and --no-rate) contradict each other");
            }
            if (global == null && !noGlobal && rate == null && !noRate && perKey == null && !noPerKey) {
                throw new IllegalArgumentException("say what to change: --global N, --no-global, --rate N/PERIOD, --no-rate,"
                        + " --per-key N --key SOURCE.FIELD or --no-per-key");
            }
            dev.runnel.KeyLimit keyLimit = null;
            if ((perKey != null) != (key != null) || (perKey != null && noPerKey)) {
                throw new IllegalArgumentException("--per-key N goes with --key SOURCE.FIELD, and neither with --no-per-key");
            }
            if (perKey != null) {
                int dot = key.indexOf('.');
                String source = dot < 0 ? "" : key.substring(0, dot);
                if (!source.equals("args") && !source.equals("metadata")) {
                    throw new IllegalArgumentException("--key must be args.FIELD or metadata.FIELD, was " + key);
                }
                keyLimit = new dev.runnel.KeyLimit(source.equals("args") ? dev.runnel.KeyLimit.Source.ARGS
                        : dev.runnel.KeyLimit.Source.METADATA, key.substring(dot + 1), perKey);
            }
            if (global != null) {
                Flags.atLeast("--global", global, 1);
            }
            int rateJobs = 0;
            java.time.Duration ratePeriod = null;
            if (rate != null) {
                dev.runnel.RateLimit parsed = rate("--rate", rate);
                rateJobs = parsed.jobs();
                ratePeriod = parsed.period();
            }
            if (keyRate != null) {
                if (keyLimit == null) {
                    throw new IllegalArgumentException("--key-rate goes with --per-key N --key SOURCE.FIELD");
                }
                dev.runnel.RateLimit parsed = rate("--key-rate", keyRate);
                keyLimit = keyLimit.withRate(parsed.jobs(), parsed.period());
            }
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = client(database)) {
                Queues queues = runnel.queues();
                if (global != null) {
                    queues.setGlobalLimit(queue, global);
                } else if (noGlobal) {
                    queues.clearGlobalLimit(queue);
                }
                if (ratePeriod != null) {
                    queues.setRateLimit(queue, rateJobs, ratePeriod);
                } else if (noRate) {
                    queues.clearRateLimit(queue);
                }
                if (keyLimit != null) {
                    queues.setKeyLimit(queue, keyLimit);
                } else if (noPerKey) {
                    queues.clearKeyLimit(queue);
                }
                out.println("queues: " + queue + " limits: " + ListQueues.limits(queues.get(queue).orElseThrow()));
            }
            return 0;
        }

        /** {@code N/PERIOD} as a rate limit, refused with the option's name. */
        private static dev.runnel.RateLimit rate(String option, String value) {
            int slash = value.indexOf('/');
            if (slash < 1) {
                throw new IllegalArgumentException(option + " must be N/PERIOD, such as 10/1s, was " + value);
            }
            int jobs;
            try {
                jobs = Integer.parseInt(value.substring(0, slash).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " must be N/PERIOD, such as 10/1s, was " + value);
            }
            try {
                return new dev.runnel.RateLimit(jobs, DurationConverter.parse(value.substring(slash + 1)));
            } catch (picocli.CommandLine.TypeConversionException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage());
            }
        }
    }
}
