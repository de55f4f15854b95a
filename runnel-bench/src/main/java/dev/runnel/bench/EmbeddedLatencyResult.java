package dev.runnel.bench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What {@link EmbeddedLatency} measured; {@link #toJson()} is the {@code --json} line.
 *
 * @param cores the processors the JVM sees
 * @param jobsAtOnce the jobs running at once in cases (b) and (c): four per core
 * @param nice the job pool's nice value in case (c)
 * @param fibN the Fibonacci number each job computes
 * @param cases (a), (b) and (c), in that order
 */
public record EmbeddedLatencyResult(int cores, int jobsAtOnce, int nice, int fibN, EmbeddedLatency.Options options,
        List<Case> cases) {
    public EmbeddedLatencyResult {
        cases = List.copyOf(cases);
    }

    /**
     * One case's request latencies, in milliseconds.
     *
     * @param meanJobsRunning jobs inside their worker, on average, as requests ended: a job handed to a
     *     thread that has not been scheduled yet does not count, and on virtual threads, which the
     *     JVM does not time-slice, at most one per carrier (core) can be inside at once
     * @param jobsPerSec jobs finished per second while the requests were measured
     */
    public record Case(String name, String what, int requests, double p50, double p99, double p999, double max,
            double meanJobsRunning, double jobsPerSec) {
        String toJson() {
            return String.format(Locale.ROOT, "{\"case\":\"%s\",\"what\":\"%s\",\"requests\":%d,\"p50_ms\":%.3f,"
                    + "\"p99_ms\":%.3f,\"p999_ms\":%.3f,\"max_ms\":%.3f,\"mean_jobs_in_worker\":%.2f,\"jobs_per_sec\":%.1f}",
                    name, what, requests, p50, p99, p999, max, meanJobsRunning, jobsPerSec);
        }
    }

    /** (c)'s p99 over (a)'s. */
    public double ratio() {
        return cases.get(2).p99() / cases.get(0).p99();
    }

    /** Whether (c)'s p99 was at most {@link EmbeddedLatency#TARGET_RATIO} times (a)'s. */
    public boolean targetMet() {
        return ratio() <= EmbeddedLatency.TARGET_RATIO;
    }

    public String toJson() {
        return String.format(Locale.ROOT, "{\"scenario\":\"embedded-latency\",\"cores\":%d,\"jobs_at_once\":%d,"
                        + "\"nice\":%d,\"fib_n\":%d,\"job_ms\":%d,\"requests\":%d,\"rounds\":%d,\"concurrency\":%d,\"server_threads\":\"%s\","
                        + "\"cases\":[%s],\"ratio_c_a_p99\":%.3f,\"target_ratio\":%.1f,\"target_met\":%b}",
                cores, jobsAtOnce, nice, fibN, options.jobMillis(), options.requests(), options.rounds(), options.concurrency(),
                options.serverThreads().name().toLowerCase(Locale.ROOT),
                cases.stream().map(Case::toJson).collect(Collectors.joining(",")), ratio(),
                EmbeddedLatency.TARGET_RATIO, targetMet());
    }
}
