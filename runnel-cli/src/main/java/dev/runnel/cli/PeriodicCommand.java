package dev.runnel.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.InsertOptions;
import dev.runnel.Periodic;
import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.Runnel;
import dev.runnel.Schedule;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code runnel periodic list|add|remove|pause|resume}. */
@Command(name = "periodic", mixinStandardHelpOptions = true,
        description = "List, add, change, remove, pause and resume periodic jobs, cluster-wide.",
        subcommands = {PeriodicCommand.ListPeriodic.class, PeriodicCommand.Add.class, PeriodicCommand.Remove.class,
                PeriodicCommand.Pause.class, PeriodicCommand.Resume.class})
final class PeriodicCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every periodic job, with its next run.")
    static final class ListPeriodic implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Option(names = "--json", description = "Print a JSON array.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = QueuesCommand.client(database)) {
                List<PeriodicRow> rows = runnel.periodic().list();
                Instant now = Instant.now();
                if (json) {
                    out.println(JsonOut.text(JsonOut.periodic(rows, now)));
                    return 0;
                }
                Table table = new Table(new String[] {"NAME", "SCHEDULE", "KIND", "QUEUE", "STATUS", "LAST TICK",
                        "NEXT RUN"}, new int[] {30, 32, 24, 16, 40, 20, 20});
                for (PeriodicRow p : rows) {
                    table.add(p.name(), schedule(p), p.kind(), p.queue(),
                            p.pausedAt().map(at -> "paused since " + at).orElse("active"),
                            p.lastTick().map(Instant::toString).orElse(""), nextRun(p, now));
                }
                table.print(out);
                if (rows.isEmpty()) {
                    out.println("(no periodic jobs: declare them on the client builder, or add one with"
                            + " runnel periodic add)");
                }
            }
            return 0;
        }

    }

    /** Its schedule, and the zone when that is not UTC. */
    static String schedule(PeriodicRow p) {
        return p.schedule().startsWith("@every") || p.zone().equals("UTC") ? p.schedule() : p.schedule() + " " + p.zone();
    }

    /** The next run of {@code p} after {@code now}, or why there is none. */
    static String nextRun(PeriodicRow p, Instant now) {
        if (p.paused()) {
            return "";
        }
        return next(p, now).map(Instant::toString).orElse("never (its schedule does not parse, or fires no more)");
    }

    /** The next run of {@code p} after {@code now}; empty when paused or when its stored schedule does not parse. */
    static Optional<Instant> next(PeriodicRow p, Instant now) {
        try {
            return p.nextRun(now);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A cron expression or an interval: exactly one. */
    static final class When {
        @Option(names = "--cron", paramLabel = "EXPR", description = "A cron expression: 5 Unix fields, 6 with"
                + " seconds first, or @hourly, @daily, @weekly, @monthly, @yearly.")
        String cron;

        @Option(names = "--every", paramLabel = "DURATION", converter = DurationConverter.class,
                description = "A fixed interval, whole seconds, at least 1s (like 30s, 5m, 1h): ticks aligned to the"
                        + " epoch.")
        Duration every;
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Add a periodic job, or replace the definition of the one of that name (edit).")
    static final class Add implements Callable<Integer> {
        private static final ObjectMapper JSON = new ObjectMapper();

        @Mixin
        DatabaseOption database;

        @Parameters(index = "0", paramLabel = "NAME", description = "The periodic job's name.")
        String name;

        @ArgGroup(exclusive = true, multiplicity = "1")
        When when;

        @Option(names = "--kind", required = true, paramLabel = "KIND", description = "The kind of job to enqueue.")
        String kind;

        @Option(names = "--args", paramLabel = "JSON", defaultValue = "{}",
                description = "The job's args, a JSON object (default: ${DEFAULT-VALUE}).")
        String args;

        @Option(names = "--zone", paramLabel = "ZONE", description = "The time zone of a cron expression, like"
                + " Europe/Berlin (default: UTC).")
        String zone;

        @Option(names = "--queue", paramLabel = "QUEUE", description = "The queue (default: default).")
        String queue;

        @Option(names = "--priority", paramLabel = "N", description = "1 (first) to 4 (default: 1).")
        Integer priority;

        @Option(names = "--max-attempts", paramLabel = "N", description = "Attempts per job (default: 25).")
        Integer maxAttempts;

        @Option(names = "--tag", paramLabel = "TAG", description = "A tag for each job (repeat for more).")
        List<String> tags = List.of();

        @Option(names = "--metadata", paramLabel = "JSON", description = "Metadata for each job, a JSON object.")
        String metadata;

        @Option(names = "--catch-up", paramLabel = "POLICY", defaultValue = "skip",
                description = "After downtime: skip missed ticks, or run the latest of them once (latest)"
                        + " (default: ${DEFAULT-VALUE}).")
        String catchUp;

        @Option(names = "--run-on-start", description = "Also enqueue one job now, as this definition is stored"
                + " new or changed.")
        boolean runOnStart;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PeriodicJob job = definition();
            PrintWriter out = spec.commandLine().getOut();
            try (Runnel runnel = QueuesCommand.client(database)) {
                Periodic periodic = runnel.periodic();
                boolean changed = periodic.upsert(job);
                PeriodicRow row = periodic.get(name).orElseThrow();
                out.println("periodic: " + (changed ? "stored " : "unchanged ") + name + ", " + schedule(row)
                        + ", next run " + nextRun(row, Instant.now()));
            }
            return 0;
        }

        /** The job the flags describe, every value checked before anything is written. */
        private PeriodicJob definition() {
            Schedule schedule;
            if (when.cron != null) {
                schedule = Schedule.cron(when.cron, zone == null ? Schedule.UTC : Schedule.zone(zone));
            } else {
                if (zone != null) {
                    throw new IllegalArgumentException("--zone applies to --cron, not to --every");
                }
                schedule = Schedule.every(when.every);
            }
            InsertOptions.Builder options = InsertOptions.builder().tags(tags);
            if (queue != null) {
                options.queue(queue);
            }
            if (priority != null) {
                options.priority(priority);
            }
            if (maxAttempts != null) {
                options.maxAttempts(maxAttempts);
            }
            if (metadata != null) {
                options.metadata(object("--metadata", metadata));
            }
            return PeriodicJob.of(name, schedule, kind, args).options(options.build())
                    .catchUp(PeriodicJob.CatchUp.fromDb(catchUp.strip().toLowerCase(java.util.Locale.ROOT)))
                    .runOnStart(runOnStart);
        }

        private static Map<String, Object> object(String flag, String json) {
            try {
                Map<String, Object> map = JSON.readValue(json, new TypeReference<Map<String, Object>>() {});
                if (map == null) {
                    throw new IllegalArgumentException(flag + " must be a JSON object, was " + json);
                }
                return map;
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(flag + " must be a JSON object, was " + json);
            }
        }
    }

    /** Removes, pauses or resumes one periodic job by name: the three commands differ in nothing else. */
    abstract static class Change implements Callable<Integer> {
        @Mixin
        DatabaseOption database;

        @Parameters(index = "0", paramLabel = "NAME", description = "The periodic job's name.")
        String name;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (Runnel runnel = QueuesCommand.client(database)) {
                spec.commandLine().getOut().println("periodic: " + apply(runnel.periodic(), name) + " " + name);
            }
            return 0;
        }

        /** Applies the change; returns its past tense. */
        abstract String apply(Periodic periodic, String name);
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove a periodic job: nothing more is"
            + " enqueued. A job declared in code comes back only once its definition in code changes.")
    static final class Remove extends Change {
        @Override
        String apply(Periodic periodic, String name) {
            periodic.remove(name);
            return "removed";
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true, description = "Pause a periodic job until resumed: its"
            + " ticks meanwhile are dropped. Survives restarts.")
    static final class Pause extends Change {
        @Override
        String apply(Periodic periodic, String name) {
            periodic.pause(name);
            return "paused";
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused periodic job: ticks from"
            + " now on fire.")
    static final class Resume extends Change {
        @Override
        String apply(Periodic periodic, String name) {
            periodic.resume(name);
            return "resumed";
        }
    }
}
