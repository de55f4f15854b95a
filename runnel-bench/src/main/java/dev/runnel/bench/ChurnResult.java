package dev.runnel.bench;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a churn run measured; {@link #toJson()} is the {@code --json} line.
 *
 * @param autovacuum whether the server ran autovacuum
 * @param completed jobs completed (the run's N, unless it was stopped early or stalled)
 * @param seconds from the start of work until the last job completed
 * @param minBacklog the fewest jobs the feeder found waiting before an insert: near zero, the
 *     workers waited for inserts, and the rates measure the feeder rather than the table
 * @param end the table after the client stopped
 */
public record ChurnResult(String driver, Churn.Options options, boolean autovacuum, long completed, double seconds, double jobsPerSec,
        List<ChurnSegment> segments, long minBacklog, long duplicates, long missing, TableHealth end) {
    public ChurnResult {
        segments = List.copyOf(segments);
    }

    /** The last segment's rate over the first's; 0 when there is no segment. */
    public double ratio() {
        return segments.isEmpty() ? 0 : segments.getLast().jobsPerSec() / segments.getFirst().jobsPerSec();
    }

    public boolean ratioMet() {
        return ratio() >= Churn.MIN_RATIO;
    }

    /** Whether all the jobs completed, each worked exactly once. */
    public boolean exact() {
        return completed == options.jobs() && duplicates == 0 && missing == 0;
    }

    public boolean passed() {
        return exact() && ratioMet();
    }

    void printSummary(PrintWriter out) {
        out.printf(Locale.ROOT, "churn: %,d jobs in %.1f s, %,.0f jobs/s; fewest waiting before an insert %,d%n",
                completed, seconds, jobsPerSec, minBacklog);
        if (!segments.isEmpty()) {
            out.printf(Locale.ROOT, "churn: last segment %,.0f jobs/s, first %,.0f: %.1f%% (%s %.0f%%)%n",
                    segments.getLast().jobsPerSec(), segments.getFirst().jobsPerSec(), 100 * ratio(),
                    ratioMet() ? "meets" : "BELOW", 100 * Churn.MIN_RATIO);
        }
        out.printf(Locale.ROOT, "churn: at the end %,d rows, heap %.1f MB, indexes %.1f MB, %,d dead tuples, %,d deleted%n",
                end.rows(), end.heapBytes() / 1048576.0, end.totalIndexBytes() / 1048576.0, end.deadTuples(),
                end.deletedRows());
        out.printf(Locale.ROOT, "churn: audit: duplicates %d, missing %d, completed %,d of %,d%n", duplicates, missing,
                completed, options.jobs());
    }

    public String toJson() {
        return String.format(Locale.ROOT, "{\"driver\":\"%s\",\"jobs\":%d,\"segment_jobs\":%d,\"batch\":%d,"
                        + "\"retention_seconds\":%s,\"cleaner_interval_seconds\":%s,\"workers\":%d,\"autovacuum\":%b,\"completed\":%d,"
                        + "\"seconds\":%.3f,\"jobs_per_sec\":%.1f,\"min_backlog\":%d,\"segments\":[%s],"
                        + "\"ratio\":%.4f,\"ratio_met\":%b,\"duplicates\":%d,\"missing\":%d,\"exact\":%b,"
                        + "\"end\":{%s},\"passed\":%b}",
                driver, options.jobs(), options.segmentJobs(), options.batch(), seconds(options.retention()),
                seconds(options.cleanerInterval()), options.maxWorkers(), autovacuum, completed, seconds, jobsPerSec, minBacklog,
                segments.stream().map(ChurnSegment::toJson).collect(Collectors.joining(",")), ratio(), ratioMet(),
                duplicates, missing, exact(), ChurnSegment.tableJson(end), passed());
    }

    /** A duration in seconds, e.g. {@code 0}, {@code 1}, {@code 0.25}. */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
    }
}
