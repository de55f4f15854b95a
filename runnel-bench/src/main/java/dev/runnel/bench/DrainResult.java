package dev.runnel.bench;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * What a drain measured. Null figures could not be measured (see {@code statementsNote}).
 *
 * @param statementsName what {@code statementsPerJob} counts: SQL statements, or the commands a
 *     Redis server ran (those its functions called included)
 * @param scriptCallsPerJob server-side script calls per job (Redis Function calls), null where the
 *     driver runs none
 * @param workerCpuMsPerJob CPU of the worker JVMs per job, in ms
 * @param workerJitCpuMsPerJob the part of {@code workerCpuMsPerJob} spent by the JVMs' JIT compiler
 *     threads (code still being compiled), in ms; null where it could not be read
 * @param serverCpuMsPerJob CPU of the database server's processes per job, in ms
 * @param killedWorker the client id of the worker JVM that was SIGKILLed mid-drain, or null
 * @param repeatsOfKilled jobs that ran twice because the killed worker was running them: the only
 *     repeats allowed
 * @param walBytesPerJob the server's WAL bytes per job over the drain (Postgres; null elsewhere)
 * @param rowUpdatesPerJob row versions the drain's updates wrote to the job table, per job
 * @param hotUpdatePct the share of those updates that were HOT (no index entry written), in percent
 * @param deleteCompleted the workers kept no completed jobs: each completion deleted its job
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
        String statementsName,
        Double statementsPerJob,
        Double scriptCallsPerJob,
        String statementsNote,
        double workerCpuMsPerJob,
        Double workerJitCpuMsPerJob,
        Double serverCpuMsPerJob,
        long duplicates,
        long missing,
        long attemptNotOne,
        long notCompleted,
        String killedWorker,
        long repeatsOfKilled,
        Integer globalLimit,
        Integer maxRunning,
        Integer perKeyLimit,
        Integer maxRunningPerKey,
        Double walBytesPerJob,
        Double rowUpdatesPerJob,
        Double hotUpdatePct,
        boolean deleteCompleted) {

    /**
     * Whether every job was stored completed, and worked exactly once at attempt 1, but for the
     * jobs the killed worker (if any) was running, which ran once more elsewhere.
     */
    public boolean exact() {
        return missing == 0 && notCompleted == 0 && duplicates == repeatsOfKilled && attemptNotOne == repeatsOfKilled;
    }

    /** Total CPU per job: worker JVMs plus the server. */
    public double cpuMsPerJob() {
        return workerCpuMsPerJob + (serverCpuMsPerJob == null ? 0 : serverCpuMsPerJob);
    }

    public void printTable(PrintWriter out) {
        out.printf(Locale.ROOT, "%-26s %s, %s%s%n", "driver", driver, mode.replace('_', ' '),
                deleteCompleted ? ", each completion deleting its job" : "");
        out.printf(Locale.ROOT, "%-26s %d processes x %d jobs, cooldown %.1f ms%n", "workers", processes, threads, cooldownMs);
        out.printf(Locale.ROOT, "%-26s %d in %.3f s%n", "jobs drained", jobs, seconds);
        out.printf(Locale.ROOT, "%-26s %.1f%n", "jobs/s", jobsPerSec);
        out.printf(Locale.ROOT, "%-26s %s%n", statementsName + "/job",
                statementsPerJob == null ? "n/a (" + statementsNote + ")" : String.format(Locale.ROOT, "%.4f", statementsPerJob));
        if (scriptCallsPerJob != null) {
            out.printf(Locale.ROOT, "%-26s %.4f%n", "function calls/job", scriptCallsPerJob);
        }
        out.printf(Locale.ROOT, "%-26s %.4f%s%n", "worker CPU ms/job", workerCpuMsPerJob, workerJitCpuMsPerJob == null ? ""
                : String.format(Locale.ROOT, " (JIT compiler threads %.4f)", workerJitCpuMsPerJob));
        out.printf(Locale.ROOT, "%-26s %s%n", "server CPU ms/job",
                serverCpuMsPerJob == null ? "n/a (in-process)" : String.format(Locale.ROOT, "%.4f", serverCpuMsPerJob));
        out.printf(Locale.ROOT, "%-26s %.4f%n", "total CPU ms/job", cpuMsPerJob());
        if (walBytesPerJob != null) {
            out.printf(Locale.ROOT, "%-26s %.0f WAL bytes, %.2f row updates (%.0f%% HOT)%n", "server writes/job",
                    walBytesPerJob, rowUpdatesPerJob, hotUpdatePct);
        }
        if (killedWorker != null) {
            out.printf(Locale.ROOT, "%-26s %s; %d of its jobs ran again elsewhere%n", "SIGKILLed worker", killedWorker,
                    repeatsOfKilled);
        }
        if (maxRunning != null) {
            out.printf(Locale.ROOT, "%-26s at most %d running across the workers (global limit %s)%n", "limits", maxRunning,
                    globalLimit == null ? "none" : globalLimit);
        }
        if (perKeyLimit != null) {
            out.printf(Locale.ROOT, "%-26s at most %d running for one key (limit %d)%n", "", maxRunningPerKey, perKeyLimit);
        }
        out.printf(Locale.ROOT, "%-26s duplicates %d, missing %d, attempt != 1: %d, not completed: %d%n", "audit",
                duplicates, missing, attemptNotOne, notCompleted);
    }

    private static String figure(Double value, String format) {
        return value == null ? "null" : String.format(Locale.ROOT, format, value);
    }

    public String toJson() {
        return String.format(Locale.ROOT, "{\"driver\":\"%s\",\"mode\":\"%s\",\"delete_completed\":%b,\"jobs\":%d,\"processes\":%d,\"threads\":%d,"
                        + "\"cooldown_ms\":%.3f,\"seconds\":%.3f,\"jobs_per_sec\":%.1f,\"statements_per_job\":%s,"
                        + "\"script_calls_per_job\":%s,"
                        + "\"worker_cpu_ms_per_job\":%.5f,\"worker_jit_cpu_ms_per_job\":%s,\"server_cpu_ms_per_job\":%s,\"cpu_ms_per_job\":%.5f,"
                        + "\"duplicates\":%d,\"missing\":%d,\"attempt_not_one\":%d,\"not_completed\":%d,"
                        + "\"killed_worker\":%s,\"repeats_of_killed\":%d,\"global_limit\":%s,\"max_running\":%s,"
                        + "\"per_key_limit\":%s,\"max_running_per_key\":%s,"
                        + "\"wal_bytes_per_job\":%s,\"row_updates_per_job\":%s,\"hot_update_pct\":%s,"
                        + "\"exact\":%b%s}",
                driver, mode, deleteCompleted, jobs, processes, threads, cooldownMs, seconds, jobsPerSec,
                figure(statementsPerJob, "%.5f"), figure(scriptCallsPerJob, "%.5f"),
                workerCpuMsPerJob, figure(workerJitCpuMsPerJob, "%.5f"), figure(serverCpuMsPerJob, "%.5f"),
                cpuMsPerJob(), duplicates, missing, attemptNotOne, notCompleted,
                killedWorker == null ? "null" : "\"" + killedWorker.replace("\"", "'") + "\"", repeatsOfKilled,
                globalLimit, maxRunning, perKeyLimit, maxRunningPerKey, figure(walBytesPerJob, "%.1f"),
                figure(rowUpdatesPerJob, "%.4f"), figure(hotUpdatePct, "%.1f"), exact(),
                statementsNote == null ? "" : ",\"statements_note\":\"" + statementsNote.replace("\"", "'") + "\"");
    }
}
