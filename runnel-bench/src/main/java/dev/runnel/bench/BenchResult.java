package dev.runnel.bench;

import java.util.Locale;

/** The summary of a bench or bare-loop run; {@link #toJson()} is the {@code --json} line. */
public record BenchResult(
        String driver,
        String mode,
        long jobsWorked,
        long jobsInserted,
        double jobsPerSec,
        double insertSeconds,
        double insertJobsPerSec,
        double seconds,
        long duplicates,
        long missing,
        int workers,
        WorkCost.PerJob cost) {

    /** Whether every inserted job was worked exactly once. */
    public boolean exact() {
        return duplicates == 0 && missing == 0;
    }

    /** What the work phase cost this process per job, for people. */
    public String costLine() {
        return String.format(Locale.ROOT, "bench: per job worked, this process: %.2f us of CPU, %.0f bytes allocated",
                cost.cpuMicros(), cost.allocBytes());
    }

    /** The exactly-once audit, for people: what {@code --json} says in its last two fields. */
    public String auditLine() {
        return exact()
                ? String.format(Locale.ROOT, "bench: exactly once: each of the %d jobs inserted was worked once", jobsInserted)
                : String.format(Locale.ROOT, "bench: NOT exactly once: %d jobs worked twice or more, %d never worked",
                        duplicates, missing);
    }

    public String toJson() {
        return String.format(Locale.ROOT, "{\"driver\":\"%s\",\"mode\":\"%s\",\"jobs_worked\":%d,\"jobs_inserted\":%d,"
                        + "\"jobs_per_sec\":%.1f,\"insert_seconds\":%.3f,\"insert_jobs_per_sec\":%.1f,\"seconds\":%.3f,"
                        + "\"duplicates\":%d,\"missing\":%d,\"workers\":%d,\"cpu_us_per_job\":%.2f,\"alloc_bytes_per_job\":%.0f}",
                driver, mode, jobsWorked, jobsInserted, jobsPerSec, insertSeconds, insertJobsPerSec, seconds,
                duplicates, missing, workers, cost.cpuMicros(), cost.allocBytes());
    }
}
