package dev.runnel.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * One segment of a churn run, and the job table as it stood at its end.
 *
 * @param index 1 for the first segment
 * @param completed jobs completed since the run began, at the segment's end
 * @param jobs jobs completed in this segment
 * @param seconds the segment's length
 * @param elapsedSeconds since the run began, at the segment's end
 * @param at the wall-clock time of the segment's end, to compare with the table's last vacuum
 */
public record ChurnSegment(int index, long completed, long jobs, double seconds, double jobsPerSec,
        double elapsedSeconds, Instant at, TableHealth table) {
    private static final String INDEX_PREFIX = "runnel_job_";

    /** The table's header line; a column per index, named without the table's prefix. */
    static void printHeader(PrintWriter out, Collection<String> indexes) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%4s %11s %9s %7s %8s", "seg", "completed",
                "jobs/s", "time s", "heap MB"));
        for (String index : indexes) {
            String name = shortName(index) + " MB";
            line.append(' ').append(" ".repeat(Math.max(0, width(index) - name.length()))).append(name);
        }
        line.append(String.format(Locale.ROOT, " %9s %11s %11s %11s %8s %11s", "rows", "live", "dead", "deleted",
                "vacuums", "last vacuum"));
        out.println(line);
    }

    void printRow(PrintWriter out) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%4d %,11d %,9.0f %7.1f %8.1f", index,
                completed, jobsPerSec, elapsedSeconds, mb(table.heapBytes())));
        for (Map.Entry<String, Long> index : table.indexBytes().entrySet()) {
            line.append(String.format(Locale.ROOT, " %" + width(index.getKey()) + ".1f", mb(index.getValue())));
        }
        line.append(String.format(Locale.ROOT, " %,9d %,11d %,11d %,11d %8d %11s", table.rows(), table.liveTuples(),
                table.deadTuples(), table.deletedRows(), table.autovacuums(), lastVacuum()));
        out.println(line);
    }

    /** How long before the segment's end autovacuum last finished with the table, e.g. {@code 12 s ago}. */
    String lastVacuum() {
        return table.lastAutovacuum()
                .map(t -> Math.max(0, Duration.between(t, at).toSeconds()) + " s ago")
                .orElse("never");
    }

    String toJson() {
        return String.format(Locale.ROOT, "{\"segment\":%d,\"completed\":%d,\"jobs\":%d,\"seconds\":%.3f,"
                        + "\"jobs_per_sec\":%.1f,\"elapsed_seconds\":%.3f,\"at\":\"%s\",%s}",
                index, completed, jobs, seconds, jobsPerSec, elapsedSeconds, at, tableJson(table));
    }

    /** The table's figures as JSON members, without braces. */
    static String tableJson(TableHealth table) {
        return String.format(Locale.ROOT, "\"heap_bytes\":%d,\"index_bytes\":%s,\"rows\":%d,\"live_tuples\":%d,"
                        + "\"dead_tuples\":%d,\"deleted_rows\":%d,\"autovacuums\":%d,\"last_autovacuum\":%s",
                table.heapBytes(), indexJson(table), table.rows(), table.liveTuples(), table.deadTuples(), table.deletedRows(),
                table.autovacuums(), table.lastAutovacuum().map(t -> "\"" + t + "\"").orElse("null"));
    }

    private static String indexJson(TableHealth table) {
        StringBuilder indexes = new StringBuilder("{");
        table.indexBytes().forEach((name, bytes) -> {
            if (indexes.length() > 1) {
                indexes.append(',');
            }
            indexes.append('"').append(name).append("\":").append(bytes);
        });
        return indexes.append('}').toString();
    }

    private static String shortName(String index) {
        return index.startsWith(INDEX_PREFIX) ? index.substring(INDEX_PREFIX.length()) : index;
    }

    private static int width(String index) {
        return Math.max(7, shortName(index).length() + 3);
    }

    private static double mb(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
