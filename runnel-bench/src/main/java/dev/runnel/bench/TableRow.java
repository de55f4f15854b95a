package dev.runnel.bench;

import dev.runnel.Runnel;
import java.util.Locale;
import java.util.Optional;

/**
 * One row of the jobs table: a workload run once at one concurrency in one delivery mode, with its
 * time (from the client's start to the last completion stored; the insert is timed apart), the
 * process's RSS at the start and the finish, its %CPU over the run, and the exactly-once audit.
 *
 * @param limitSeconds the IO-bound rows' physical limit, jobs x wait / concurrency
 * @param target what the row must achieve, in words; empty when it has no target
 * @param met whether it did; empty when it has no target, or could not run
 * @param error why the row could not run (Postgres unreachable, say); the figures are then zero
 */
public record TableRow(TableWorkload workload, int concurrency, Runnel.Delivery mode, long jobs, double seconds,
        double insertSeconds, long startRssKb, long finishRssKb, double cpuPercent, long completed, long duplicates,
        long missing, Optional<Double> limitSeconds, Optional<Double> seedFigure, Optional<String> target,
        Optional<Boolean> met, Optional<String> error) {

    /** A row that could not run. */
    static TableRow failed(TableWorkload workload, int concurrency, Runnel.Delivery mode, long jobs, String error) {
        return new TableRow(workload, concurrency, mode, jobs, 0, 0, 0, 0, 0, 0, 0, 0,
                workload.limitSeconds(jobs, concurrency), workload.seedFigure(concurrency, mode), Optional.empty(),
                Optional.empty(), Optional.of(error));
    }

    /** Every inserted job completed exactly once (vacuously true for idle, and for a row that could not run). */
    public boolean exact() {
        return error.isPresent() || (completed == jobs && duplicates == 0 && missing == 0);
    }

    /** The table's line for a person. */
    String describe() {
        String head = String.format(Locale.ROOT, "%-9s %-13s c=%-4d %7d jobs", workload.label(), BenchJobs.mode(mode),
                concurrency, jobs);
        if (error.isPresent()) {
            return head + "  NOT RUN: " + error.get();
        }
        String seed = seedFigure.map(s -> String.format(Locale.ROOT, " (reference %s)",
                workload == TableWorkload.IDLE ? s + "%" : s + " s")).orElse("");
        return head + String.format(Locale.ROOT, "  %8.3f s  rss %,d -> %,d kB  cpu %5.1f%%  completed %d dup %d missing %d%s%s",
                seconds, startRssKb, finishRssKb, cpuPercent, completed, duplicates, missing, seed,
                target.map(t -> "  [" + t + ": " + (met.orElse(false) ? "met" : "MISSED") + "]").orElse(""));
    }

    JsonLine toJson() {
        return new JsonLine()
                .put("workload", workload.label())
                .put("concurrency", concurrency)
                .put("mode", BenchJobs.mode(mode))
                .put("jobs", jobs)
                .put("seconds", seconds)
                .put("insert_seconds", insertSeconds)
                .put("start_rss_kb", startRssKb)
                .put("finish_rss_kb", finishRssKb)
                .put("cpu_percent", cpuPercent)
                .put("completed", completed)
                .put("duplicates", duplicates)
                .put("missing", missing)
                .put("exact", exact())
                .put("limit_seconds", limitSeconds.orElse(null))
                .put("seed", seedFigure.orElse(null))
                .put("target", target.orElse(null))
                .put("met", met.orElse(null))
                .put("error", error.orElse(null));
    }
}
