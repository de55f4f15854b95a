package dev.runnel.bench;

import dev.runnel.Drivers;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.driver.Driver;
import dev.runnel.postgres.PostgresDriver;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The idle cluster ({@code runnel scenario idle-cluster}): {@code clients} clients of {@code queues}
 * queues each, at the runtime's defaults, on one Postgres schema or one Redis namespace, started and
 * left with nothing to do; what they cost while nothing is inserted: the server's statements (or
 * commands, and on Redis the function calls among them) a second and its CPU (Postgres: its
 * processes' CPU in {@code /proc}; Redis: its own {@code INFO cpu}), and the clients' CPU (this
 * JVM's, where they all run). Every client has a driver of its own, as an application instance
 * would: its own pool or connection and its own listening connection.
 */
public final class IdleCluster {
    /** The targets at 20 clients x 50 queues: each side at most 2% of a core. */
    public static final double SERVER_TARGET_PCT = 2;
    public static final double CLIENTS_TARGET_PCT = 2;
    /** Connections in each client's pool. */
    static final int CLIENT_POOL = 2;

    /**
     * @param settle how long the clients run before the measured window: their start, first claims and election
     * @param safetyPoll each client's {@code fetchSafetyPollInterval}; empty for the runtime's default
     */
    public record Options(String url, int clients, int queues, Duration settle, Duration duration,
            Optional<Duration> safetyPoll) {}

    /**
     * What the idle window cost.
     *
     * @param statementsName what the statements are: {@code SQL statements} or {@code Redis commands}
     * @param scriptCalls the server's function calls (Redis), -1 where it runs none
     */
    public record Result(int clients, int queues, double seconds, String statementsName, long statements,
            double statementsPerSec, long scriptCalls, double serverCpuPct, double clientsCpuPct,
            Map<String, Long> topStatements, Optional<String> notCounted) {

        public boolean targetsMet() {
            return serverCpuPct <= SERVER_TARGET_PCT && clientsCpuPct <= CLIENTS_TARGET_PCT;
        }

        String describe() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "idle cluster: %d clients x %d queues for %.1f s: %s %s/s%s, the server %.2f%% of a core,"
                            + " clients %.2f%% of a core (targets %.0f%% and %.0f%%: %s)",
                    clients, queues, seconds, statements < 0 ? "?" : String.format(Locale.ROOT, "%.1f", statementsPerSec),
                    statementsName, scriptCalls < 0 ? "" : String.format(Locale.ROOT, " (function calls %.1f/s)",
                            scriptCalls / seconds),
                    serverCpuPct, clientsCpuPct, SERVER_TARGET_PCT, CLIENTS_TARGET_PCT,
                    targetsMet() ? "met" : "MISSED"));
            notCounted.ifPresent(why -> sb.append(System.lineSeparator()).append("  statements not counted: ").append(why));
            topStatements.forEach((query, calls) -> sb.append(System.lineSeparator())
                    .append(String.format(Locale.ROOT, "  %8d  %s", calls, query)));
            return sb.toString();
        }

        public String toJson() {
            List<JsonLine> top = new ArrayList<>();
            topStatements.forEach((query, calls) -> top.add(new JsonLine().put("query", query).put("calls", calls)));
            return new JsonLine().put("scenario", "idle-cluster").put("clients", clients).put("queues", queues)
                    .put("seconds", seconds).put("statements_name", statementsName).put("statements", statements)
                    .put("statements_per_sec", statementsPerSec).put("script_calls", scriptCalls)
                    .put("server_cpu_pct", serverCpuPct).put("clients_cpu_pct", clientsCpuPct)
                    .put("server_target_pct", SERVER_TARGET_PCT).put("clients_target_pct", CLIENTS_TARGET_PCT)
                    .put("targets_met", targetsMet()).put("top_statements", top)
                    .put("statements_not_counted", notCounted.orElse(null)).toString();
        }
    }

    /** The scenario's job: never inserted; its worker only gives the queues something to run. */
    public record Nothing() implements JobArgs {
        @Override
        public String kind() {
            return "idle_cluster_nothing";
        }
    }

    private final Options options;
    private final PrintWriter out;

    public IdleCluster(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    public Result run() throws InterruptedException {
        try (BenchDatabase db = BenchDatabase.open(options.url())) {
            List<Driver> drivers = new ArrayList<>();
            List<Runnel> clients = new ArrayList<>();
            try {
                for (int c = 0; c < options.clients(); c++) {
                    Driver own = ownDriver(db);
                    drivers.add(own);
                    RunnelBuilder builder = Runnel.builder().driver(own).clientId("idle-" + c);
                    options.safetyPoll().ifPresent(builder::fetchSafetyPollInterval);
                    for (int q = 0; q < options.queues(); q++) {
                        builder.queue("idle_" + q, 10);
                    }
                    Runnel client = builder.worker(Nothing.class, job -> { }).build();
                    clients.add(client);
                    client.start();
                }
                out.printf(Locale.ROOT, "idle cluster: %d clients x %d queues started; settling for %s%n",
                        options.clients(), options.queues(), options.settle());
                out.flush();
                Thread.sleep(options.settle().toMillis());
                ServerStats stats = db.stats();
                Optional<String> notCounted = stats.resetStatements();
                long self = ProcessHandle.current().pid();
                ServerCpu serverCpu = new ServerCpu(stats);
                double selfBefore = ProcCpu.millis(self);
                long t0 = System.nanoTime();
                Thread.sleep(options.duration().toMillis());
                double seconds = (System.nanoTime() - t0) / 1e9;
                double server = serverCpu.millisSince();
                double clientsCpu = ProcCpu.millis(self) - selfBefore;
                long statements = notCounted.isPresent() ? -1 : stats.statements();
                long scriptCalls = notCounted.isPresent() ? -1 : stats.scriptCalls();
                Map<String, Long> top = notCounted.isPresent() ? Map.of() : stats.topStatements(5);
                Result result = new Result(options.clients(), options.queues(), seconds, stats.statementsName(),
                        statements, statements < 0 ? -1 : statements / seconds, scriptCalls, server / seconds / 10,
                        clientsCpu / seconds / 10, top, notCounted);
                out.println(result.describe());
                out.flush();
                return result;
            } finally {
                for (Runnel client : clients) {
                    client.stop(Duration.ofSeconds(5));
                }
                drivers.forEach(Driver::close);
            }
        }
    }

    /**
     * Each client's driver of its own on the run's store. On Postgres its own pool, of two
     * connections so that 20 clients stay within a default max_connections of 100, and its own
     * listener; on Redis its own connection and subscription.
     */
    private static Driver ownDriver(BenchDatabase db) {
        return db.driver() instanceof PostgresDriver
                ? PostgresDriver.builder().url(db.url()).maxPoolSize(CLIENT_POOL).build()
                : Drivers.open(db.url());
    }
}
