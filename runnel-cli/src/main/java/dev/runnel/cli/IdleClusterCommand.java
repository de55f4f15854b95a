package dev.runnel.cli;

import dev.runnel.Drivers;
import dev.runnel.bench.IdleCluster;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code runnel scenario idle-cluster}: what clients with nothing to do cost one Postgres or Redis. */
@Command(name = "idle-cluster", mixinStandardHelpOptions = true,
        description = "Start --clients clients of --queues queues each on one Postgres (a schema of its own) or Redis"
                + " (a namespace of its own), insert nothing, and report what they cost while idle: the server's"
                + " statements (Redis: commands and function calls) a second and CPU, and the clients' CPU.")
final class IdleClusterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--database-url", paramLabel = "URL", defaultValue = JobsTableCommand.DEFAULT_POSTGRES_URL,
            description = "The Postgres or Redis (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--clients", paramLabel = "C", defaultValue = "20",
            description = "Clients, each with a driver of its own (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--queues", paramLabel = "Q", defaultValue = "50",
            description = "Queues per client (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--settle", paramLabel = "D", converter = DurationConverter.class, defaultValue = "5s",
            description = "How long the clients run before the measured window (default: ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class, defaultValue = "30s",
            description = "The measured window (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--fetch-safety-poll-interval", paramLabel = "D", converter = DurationConverter.class,
            description = "Each client's poll interval for queues without limits while it hears notifications (default:"
                    + " the runtime's, 10s).")
    Duration safetyPoll;

    @Option(names = "--json", description = "End with one JSON line of the figures.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (!Stream.of("postgres://", "postgresql://", "redis://", "rediss://").anyMatch(url::startsWith)) {
            throw new IllegalArgumentException("--database-url must be a postgres:// or redis:// URL (the clients share"
                    + " a server), was '" + Drivers.redact(url) + "'");
        }
        Flags.between("--clients", clients, 1, 40);
        Flags.between("--queues", queues, 1, 1_000);
        if (duration.compareTo(Duration.ofSeconds(1)) < 0 || settle.isNegative()) {
            throw new IllegalArgumentException("--duration must be at least 1s and --settle at least 0s");
        }
        if (safetyPoll != null && !safetyPoll.isPositive()) {
            throw new IllegalArgumentException("--fetch-safety-poll-interval must be above 0, was " + safetyPoll);
        }
        PrintWriter out = spec.commandLine().getOut();
        IdleCluster.Result result = new IdleCluster(new IdleCluster.Options(url, clients, queues, settle, duration,
                java.util.Optional.ofNullable(safetyPoll)), out)
                .run();
        if (json) {
            out.println(result.toJson());
        }
        out.flush();
        return 0;
    }
}
