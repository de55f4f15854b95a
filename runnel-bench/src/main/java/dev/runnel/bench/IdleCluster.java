package dev.runnel.bench;

import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.driver.Driver;
import dev.runnel.postgres.PostgresDriver;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The idle cluster ({@code runnel scenario idle-cluster}): {@code clients} clients of {@code queues}
 * queues each, at the runtime's defaults, on one Postgres schema, started and left with nothing to
 * do; what they cost while nothing is inserted: the server's statements a second and its CPU (its
 * processes' CPU in {@code /proc}), and the clients' CPU (this JVM's, where they all run). Every
 * client has a driver of its own, as an application instance would: its own pool and its own
 * listening connection.
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

    /** What the idle window cost. */
    public record Result(int clients, int queues, double seconds, long statements, double statementsPerSec,
            double serverCpuPct, double clientsCpuPct, Map<String, Long> topStatements, Optional<String> notCounted) {

        public boolean targetsMet() {
            return serverCpuPct <= SERVER_TARGET_PCT && clientsCpuPct <= CLIENTS_TARGET_PCT;
        }

        String describe() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "idle cluster: %d clients x %d queues for %.1f s: %s statements/s, Postgres %.2f%% of a core,"
                            + " clients %.2f%% of a core (targets %.0f%% and %.0f%%: %s)",
                    clients, queues, seconds, statements < 0 ? "?" : String.format(Locale.ROOT, "%.1f", statementsPerSec),
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
                    .put("seconds", seconds).put("statements", statements).put("statements_per_sec", statementsPerSec)
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
                    // Each client a driver of its own on the run's schema: its own pool (of two
                    // connections, so that 20 clients stay within a default max_connections of
                    // 100) and its own listener.
                    Driver own = PostgresDriver.builder().url(db.url()).maxPoolSize(CLIENT_POOL).build();
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
                Optional<String> notCounted = db.stats().resetStatements();
                long self = ProcessHandle.current().pid();
                Map<Long, Double> serverBefore = ProcCpu.byCommand("postgres");
                double selfBefore = ProcCpu.millis(self);
                long t0 = System.nanoTime();
                Thread.sleep(options.duration().toMillis());
                double seconds = (System.nanoTime() - t0) / 1e9;
                double server = ProcCpu.delta(serverBefore, ProcCpu.byCommand("postgres"));
                double clientsCpu = ProcCpu.millis(self) - selfBefore;
                long statements = notCounted.isPresent() ? -1 : db.stats().statements();
                Map<String, Long> top = notCounted.isPresent() || !(db.driver() instanceof PostgresDriver pg)
                        ? Map.of() : topStatements(pg.dataSource());
                Result result = new Result(options.clients(), options.queues(), seconds, statements,
                        statements < 0 ? -1 : statements / seconds, server / seconds / 10, clientsCpu / seconds / 10,
                        top, notCounted);
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

    /** The five statements called most since the reset, their text cut to 100 characters. */
    private static Map<String, Long> topStatements(DataSource dataSource) {
        Map<String, Long> top = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT regexp_replace(query, '\\s+', ' ', 'g'), calls FROM pg_stat_statements"
                        + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                        + " AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC LIMIT 5")) {
            while (rs.next()) {
                String q = rs.getString(1);
                top.put(q.length() > 100 ? q.substring(0, 100) + "..." : q, rs.getLong(2));
            }
        } catch (SQLException e) {
            // the figures stand without the breakdown
        }
        return top;
    }
}
