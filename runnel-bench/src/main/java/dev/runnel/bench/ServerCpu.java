package dev.runnel.bench;

import java.util.Map;

/**
 * The database server's CPU time from a start: as the server reports it ({@link
 * ServerStats#cpuMillis()}, Redis), else the CPU of its processes in /proc by their name
 * (Postgres). Nothing is measured for a database without a server (SQLite).
 */
final class ServerCpu {
    private final ServerStats stats;
    private final double reportedBefore;
    private final Map<Long, Double> processesBefore;

    /** Starts measuring now. */
    ServerCpu(ServerStats stats) {
        this.stats = stats;
        this.reportedBefore = stats.cpuMillis();
        this.processesBefore = reportedBefore >= 0 ? Map.of()
                : stats.processName().map(ProcCpu::byCommand).orElse(Map.of());
    }

    /** Whether there is a server whose CPU this measures. */
    boolean measured() {
        return reportedBefore >= 0 || stats.processName().isPresent();
    }

    /** The server's CPU in ms since the start; 0 where nothing is {@link #measured()}. */
    double millisSince() {
        return reportedBefore >= 0 ? stats.cpuMillis() - reportedBefore
                : stats.processName().map(name -> ProcCpu.delta(processesBefore, ProcCpu.byCommand(name))).orElse(0.0);
    }
}
