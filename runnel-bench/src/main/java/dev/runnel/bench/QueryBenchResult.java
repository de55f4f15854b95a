package dev.runnel.bench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a query harness run measured; {@link #toJson()} is the {@code --json} line.
 *
 * @param loadSeconds loading, vacuuming and analyzing the table; 0 when a kept table was reused
 * @param worstEstimateError the largest relative error of an estimated count
 */
public record QueryBenchResult(long jobs, double loadSeconds, long heapBytes, long indexBytes,
        List<QueryBench.Timing> timings, double worstEstimateError) {
    public QueryBenchResult {
        timings = List.copyOf(timings);
    }

    /**
     * Whether every listing as people get it and the fast counts answered within the target (the
     * exact counts and the whole listings behind partial searches aside).
     */
    public boolean passed() {
        return timings.stream().filter(t -> !t.name().contains("(exact)") && !t.name().endsWith(QueryBench.WHOLE))
                .allMatch(QueryBench.Timing::met);
    }

    public String toJson() {
        String queries = timings.stream().map(t -> String.format(Locale.ROOT,
                        "{\"name\":\"%s\",\"rows\":%d,\"median_ms\":%.2f,\"max_ms\":%.2f,\"partial\":%b}", t.name(),
                        t.rows(), t.medianMs(), t.maxMs(), t.partial()))
                .collect(Collectors.joining(","));
        return String.format(Locale.ROOT, "{\"jobs\":%d,\"load_seconds\":%.1f,\"heap_mb\":%.1f,\"index_mb\":%.1f,"
                        + "\"worst_estimate_error\":%.4f,\"passed\":%b,\"queries\":[%s]}", jobs, loadSeconds,
                heapBytes / 1048576.0, indexBytes / 1048576.0, worstEstimateError, passed(), queries);
    }
}
