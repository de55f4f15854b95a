package dev.runnel.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The latency bench's figures for one driver: from the insert call to the worker starting, in
 * milliseconds, over jobs inserted one at a time into an idle client; and the first job, waiting
 * before a client starts, from the start call to its worker starting: in a JVM whose first client
 * has come and gone ({@code firstJobMs}, the target's), and for that first client, in a cold JVM
 * ({@code coldFirstJobMs}: class loading and unjitted code, which no job queue setting changes).
 *
 * @param process where the client ran: {@code same} as the inserts, or {@code other}
 */
public record LatencyResult(String driver, String process, int jobs, double ratePerSec, double p50Ms, double p99Ms,
        double maxMs, double firstJobMs, double coldFirstJobMs, long duplicates, long missing) {

    /** Targets: p50 under 5 ms, p99 under 20 ms, the first job under 50 ms. */
    public static final double P50_TARGET_MS = 5;
    public static final double P99_TARGET_MS = 20;
    public static final double FIRST_TARGET_MS = 50;

    /** Builds the figures from the latencies of the jobs, in microseconds (sorted here). */
    static LatencyResult of(String driver, String process, double rate, long[] micros, double firstJobMs,
            double coldFirstJobMs, long duplicates, long missing) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        return new LatencyResult(driver, process, sorted.length, rate, percentile(sorted, 50) / 1e3,
                percentile(sorted, 99) / 1e3, sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e3, firstJobMs,
                coldFirstJobMs, duplicates, missing);
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public boolean exact() {
        return duplicates == 0 && missing == 0;
    }

    public boolean targetsMet() {
        return p50Ms < P50_TARGET_MS && p99Ms < P99_TARGET_MS && firstJobMs < FIRST_TARGET_MS;
    }

    String describe() {
        return String.format(Locale.ROOT, "latency %-8s (%s process): %d jobs at %.0f/s  p50 %.2f ms  p99 %.2f ms"
                        + "  max %.2f ms  first job %.1f ms (cold JVM %.1f ms)  duplicates %d missing %d  targets %s",
                driver, process, jobs, ratePerSec, p50Ms, p99Ms, maxMs, firstJobMs, coldFirstJobMs, duplicates, missing,
                targetsMet() ? "met" : "MISSED");
    }

    JsonLine toJson() {
        return new JsonLine().put("driver", driver).put("process", process).put("jobs", jobs)
                .put("rate_per_sec", ratePerSec).put("p50_ms", p50Ms).put("p99_ms", p99Ms).put("max_ms", maxMs)
                .put("first_job_ms", firstJobMs).put("cold_first_job_ms", coldFirstJobMs).put("duplicates", duplicates).put("missing", missing)
                .put("exact", exact()).put("targets_met", targetsMet());
    }
}
