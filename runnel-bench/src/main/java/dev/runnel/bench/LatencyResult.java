package dev.runnel.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The latency bench's figures for one driver: from the insert call to the worker starting, in
 * milliseconds, over jobs inserted one at a time into an idle client; from the insert call to the
 * job's completion being stored ({@code storedP50Ms}, {@code storedP99Ms}: what a caller waiting
 * for a job's outcome waits, for a job that does nothing); and the first job, waiting
 * before a client starts, from the start call to its worker starting: in a JVM whose first client
 * has come and gone ({@code firstJobMs}, the target's), and for that first client, in a cold JVM
 * ({@code coldFirstJobMs}: class loading and unjitted code, which no job queue setting changes).
 *
 * @param process where the client ran: {@code same} as the inserts, or {@code other}
 */
public record LatencyResult(String driver, String process, int jobs, double ratePerSec, double loadPerSec,
        double p50Ms, double p99Ms, double p999Ms, double maxMs, double storedP50Ms, double storedP99Ms,
        double firstJobMs, double coldFirstJobMs, long duplicates, long missing) {

    /**
     * Targets: p50 under 5 ms, p99 at most 10 ms and the slowest job at most 50 ms into an idle
     * client (p99 at most 20 ms under a background load), the first job after a start under 50 ms.
     */
    public static final double P50_TARGET_MS = 5;
    public static final double P99_TARGET_MS = 10;
    public static final double P99_UNDER_LOAD_TARGET_MS = 20;
    public static final double MAX_TARGET_MS = 50;
    public static final double FIRST_TARGET_MS = 50;

    /**
     * Builds the figures from the jobs' times from insert to start and from insert to stored
     * completion, in microseconds (sorted here).
     */
    static LatencyResult of(String driver, String process, double rate, double load, long[] micros,
            long[] storedMicros, double firstJobMs, double coldFirstJobMs, long duplicates, long missing) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        long[] stored = storedMicros.clone();
        Arrays.sort(stored);
        return new LatencyResult(driver, process, sorted.length, rate, load, percentile(sorted, 50) / 1e3,
                percentile(sorted, 99) / 1e3, percentile(sorted, 99.9) / 1e3,
                sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e3, percentile(stored, 50) / 1e3,
                percentile(stored, 99) / 1e3, firstJobMs, coldFirstJobMs, duplicates, missing);
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

    /** The p99 target: {@link #P99_TARGET_MS} into an idle client, {@link #P99_UNDER_LOAD_TARGET_MS} under a load. */
    public double p99TargetMs() {
        return loadPerSec > 0 ? P99_UNDER_LOAD_TARGET_MS : P99_TARGET_MS;
    }

    /** Whether the figures meet the targets: under a load, only the p99's. */
    public boolean targetsMet() {
        if (loadPerSec > 0) {
            return p99Ms <= P99_UNDER_LOAD_TARGET_MS;
        }
        return p50Ms < P50_TARGET_MS && p99Ms <= P99_TARGET_MS && maxMs <= MAX_TARGET_MS
                && firstJobMs < FIRST_TARGET_MS;
    }

    String describe() {
        String load = loadPerSec > 0 ? String.format(Locale.ROOT, " beside %.0f jobs/s of load", loadPerSec) : "";
        return String.format(Locale.ROOT, "latency %-8s (%s process): %d jobs at %.0f/s%s  p50 %.2f ms  p99 %.2f ms"
                        + "  p99.9 %.2f ms  max %.2f ms  completion stored: p50 %.2f ms  p99 %.2f ms"
                        + "  first job %.1f ms (cold JVM %.1f ms)  duplicates %d missing %d  targets %s",
                driver, process, jobs, ratePerSec, load, p50Ms, p99Ms, p999Ms, maxMs, storedP50Ms, storedP99Ms,
                firstJobMs, coldFirstJobMs, duplicates, missing, targetsMet() ? "met" : "MISSED");
    }

    /** The driver's JSON line: its figures, with the targets they are held to. */
    JsonLine toJson() {
        return new JsonLine().put("bench", "latency").put("driver", driver).put("process", process).put("jobs", jobs)
                .put("rate_per_sec", ratePerSec).put("load_per_sec", loadPerSec).put("p50_ms", p50Ms)
                .put("p99_ms", p99Ms).put("p999_ms", p999Ms).put("max_ms", maxMs).put("stored_p50_ms", storedP50Ms)
                .put("stored_p99_ms", storedP99Ms).put("first_job_ms", firstJobMs)
                .put("cold_first_job_ms", coldFirstJobMs).put("duplicates", duplicates).put("missing", missing)
                .put("exact", exact()).put("p50_target_ms", P50_TARGET_MS).put("p99_target_ms", p99TargetMs())
                .put("max_target_ms", loadPerSec > 0 ? null : (Object) MAX_TARGET_MS)
                .put("first_job_target_ms", FIRST_TARGET_MS).put("targets_met", targetsMet());
    }
}
