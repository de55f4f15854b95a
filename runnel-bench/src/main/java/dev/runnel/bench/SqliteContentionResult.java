package dev.runnel.bench;

import dev.runnel.sqlite.SqliteBusyWait;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the SQLite contention scenario measured, per busy wait; {@link #toJson()} is the
 * {@code --json} line.
 */
public record SqliteContentionResult(SqliteContention.Options options, List<Wait> waits) {
    public SqliteContentionResult {
        waits = List.copyOf(waits);
    }

    /** One writer thread's successful writes' latencies (microseconds) and its failed writes. */
    public record Connection(long[] latenciesMicros, long errors) {
        /** Time this connection spent in its writes, in ms: what an unfair wait makes long for some. */
        double totalMillis() {
            return Arrays.stream(latenciesMicros).sum() / 1000.0;
        }
    }

    /**
     * The figures of one busy wait; latencies in ms.
     *
     * @param fastestConnection the least time one connection spent in its writes
     * @param slowestConnection the most
     * @param slowTransactions each slow transaction's time holding the lock, BEGIN to COMMIT
     */
    public record Wait(SqliteBusyWait busyWait, long writes, long errors, double p50, double p95, double p99, double p9999,
            double max, double fastestConnection, double slowestConnection, List<Long> slowTransactions, String firstError) {
        public Wait {
            slowTransactions = List.copyOf(slowTransactions);
        }

        static Wait of(SqliteBusyWait wait, List<Connection> connections, List<Long> slow, String firstError) {
            long[] all = connections.stream().flatMapToLong(c -> Arrays.stream(c.latenciesMicros())).sorted().toArray();
            long errors = connections.stream().mapToLong(Connection::errors).sum();
            double fastest = connections.stream().mapToDouble(Connection::totalMillis).min().orElse(0);
            double slowest = connections.stream().mapToDouble(Connection::totalMillis).max().orElse(0);
            return new Wait(wait, all.length, errors, pct(all, 0.50), pct(all, 0.95), pct(all, 0.99), pct(all, 0.9999),
                    all.length == 0 ? 0 : all[all.length - 1] / 1000.0, fastest, slowest, slow, firstError);
        }

        /** Nearest-rank percentile, in ms. */
        private static double pct(long[] sorted, double p) {
            if (sorted.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(p * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1000.0;
        }

        /** The target for p99.99: the longest slow transaction as it ran, plus the margin. */
        public long targetMillis(SqliteContention.Options options) {
            long longest = slowTransactions.stream().mapToLong(Long::longValue).max().orElse(options.slow().toMillis());
            return Math.max(longest, options.slow().toMillis()) + SqliteContention.TARGET_MARGIN.toMillis();
        }

        /** No failed write, and p99.99 within the longest slow transaction plus the margin. */
        public boolean metTarget(SqliteContention.Options options) {
            return errors == 0 && p9999 <= targetMillis(options);
        }
    }

    /** Whether the fair wait, if it ran, met its target. */
    public boolean passed() {
        return waits.stream().filter(w -> w.busyWait() == SqliteBusyWait.FAIR).allMatch(w -> w.metTarget(options));
    }

    public void printTable(PrintWriter out) {
        out.printf(Locale.ROOT, "sqlite-contention: %d processes x %d threads, %d ms slow transactions every %d ms,"
                        + " a write every %d ms per thread, busy timeout %d ms, %d s per wait%n",
                options.processes(), options.threads(), options.slow().toMillis(),
                options.slow().toMillis() + options.slowGap().toMillis(), options.pause().toMillis(),
                options.busyTimeout().toMillis(), options.duration().toSeconds());
        out.println("| wait | writes | errors | p50 ms | p95 ms | p99 ms | p99.99 ms | max ms | fastest conn ms | slowest conn ms | slow txns ms | target |");
        out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |");
        for (Wait w : waits) {
            out.printf(Locale.ROOT, "| %s | %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %s | %s %d ms |%n",
                    w.busyWait().urlName(), w.writes(), w.errors(), w.p50(), w.p95(), w.p99(), w.p9999(), w.max(),
                    w.fastestConnection(), w.slowestConnection(),
                    w.slowTransactions().stream().map(String::valueOf).collect(Collectors.joining(" ")),
                    w.metTarget(options) ? "met" : "MISSED", w.targetMillis(options));
            if (w.errors() > 0) {
                out.printf("sqlite-contention: %s: first error: %s%n", w.busyWait().urlName(), w.firstError());
            }
        }
        out.printf(Locale.ROOT, "sqlite-contention: target for the fair wait: no errors, p99.99 at most the longest slow"
                + " transaction + %d ms: %s%n", SqliteContention.TARGET_MARGIN.toMillis(), passed() ? "met" : "MISSED");
    }

    public String toJson() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "{\"scenario\":\"sqlite-contention\",\"processes\":%d,\"threads\":%d,"
                        + "\"duration_ms\":%d,\"slow_ms\":%d,\"slow_gap_ms\":%d,\"pause_ms\":%d,\"busy_timeout_ms\":%d,\"waits\":[",
                options.processes(), options.threads(), options.duration().toMillis(), options.slow().toMillis(),
                options.slowGap().toMillis(), options.pause().toMillis(), options.busyTimeout().toMillis()));
        for (int i = 0; i < waits.size(); i++) {
            Wait w = waits.get(i);
            b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
                    "{\"wait\":\"%s\",\"writes\":%d,\"errors\":%d,\"p50_ms\":%.2f,\"p95_ms\":%.2f,\"p99_ms\":%.2f,"
                            + "\"p99_99_ms\":%.2f,\"max_ms\":%.2f,\"fastest_connection_ms\":%.1f,\"slowest_connection_ms\":%.1f,"
                            + "\"slow_transactions_ms\":%s,\"target_ms\":%d,\"met_target\":%b}",
                    w.busyWait().urlName(), w.writes(), w.errors(), w.p50(), w.p95(), w.p99(), w.p9999(), w.max(),
                    w.fastestConnection(), w.slowestConnection(), w.slowTransactions(), w.targetMillis(options), w.metTarget(options)));
        }
        return b.append(String.format(Locale.ROOT, "],\"target_margin_ms\":%d,\"passed\":%b}",
                SqliteContention.TARGET_MARGIN.toMillis(), passed())).toString();
    }
}
