package dev.runnel.bench;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * What a drain measured. Null figures could not be measured (see {@code statementsNote}).
 *
 * @param workerCpuMsPerJob CPU of the worker JVMs per job, in ms
 * @param serverCpuMsPerJob CPU of the database server's processes per job, in ms
 */
public record DrainResult(
        String driver,
        String mode,
        long jobs,
        int processes,
        int threads,
        double cooldownMs,
        double seconds,
        double jobsPerSec,
        Double statementsPerJob,
        String statementsNote,
        double workerCpuMsPerJob,
        Double serverCpuMsPerJob,
        long duplicates,
        long missing,
        long attemptNotOne,
        long notCompleted) {

    /** Whether every job was worked exactly once and stored completed at attempt 1. */
    public boolean exact() {
        return duplicates == 0 && missing == 0 && attemptNotOne == 0 && notCompleted == 0;
    }

    /** Total CPU per job: worker JVMs plus the server. */
    public double cpuMsPerJob() {
        return workerCpuMsPerJob + (serverCpuMsPerJob == null ? 0 : serverCpuMsPerJob);
    }

    public void printTable(PrintWriter out) {
        out.printf(Locale.ROOT, "%-26s %s, %s%n", "driver", driver, mode.replace('_', ' '));
        out.printf(Locale.ROOT, "%-26s %d processes x %d jobs, cooldown %.1f ms%n", "workers", processes, threads, cooldownMs);
        out.printf(Locale.ROOT, "%-26s %d in %.3f s%n", "jobs drained", jobs, seconds);
        out.printf(Locale.ROOT, "%-26s %.1f%n", "jobs/s", jobsPerSec);
        out.printf(Locale.ROOT, "%-26s %s%n", "SQL statements/job",
                statementsPerJob == null ? "n/a (" + statementsNote + ")" : String.format(Locale.ROOT, "%.4f", statementsPerJob));
        out.printf(Locale.ROOT, "%-26s %.4f%n", "worker CPU ms/job", workerCpuMsPerJob);
        out.printf(Locale.ROOT, "%-26s %s%n", "server CPU ms/job",
                serverCpuMsPerJob == null ? "n/a (in-process)" : String.format(Locale.ROOT, "%.4f", serverCpuMsPerJob));
        out.printf(Locale.ROOT, "%-26s %.4f%n", "total CPU ms/job", cpuMsPerJob());
        out.printf(Locale.ROOT, "%-26s duplicates %d, missing %d, attempt != 1: %d, not completed: %d%n", "audit",
                duplicates, missing, attemptNotOne, notCompleted);
    }

    public String toJson() {
        return String.format(Locale.ROOT, "{\"driver\":\"%s\",\"mode\":\"%s\",\"jobs\":%d,\"processes\":%d,\"threads\":%d,"
                        + "\"cooldown_ms\":%.3f,\"seconds\":%.3f,\"jobs_per_sec\":%.1f,\"statements_per_job\":%s,"
                        + "\"worker_cpu_ms_per_job\":%.5f,\"server_cpu_ms_per_job\":%s,\"cpu_ms_per_job\":%.5f,"
                        + "\"duplicates\":%d,\"missing\":%d,\"attempt_not_one\":%d,\"not_completed\":%d%s}",
                driver, mode, jobs, processes, threads, cooldownMs, seconds, jobsPerSec,
                statementsPerJob == null ? "null" : String.format(Locale.ROOT, "%.5f", statementsPerJob),
                workerCpuMsPerJob, serverCpuMsPerJob == null ? "null" : String.format(Locale.ROOT, "%.5f", serverCpuMsPerJob),
                cpuMsPerJob(), duplicates, missing, attemptNotOne, notCompleted,
                statementsNote == null ? "" : ",\"statements_note\":\"" + statementsNote.replace("\"", "'") + "\"");
    }
}
