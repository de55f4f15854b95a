package dev.runnel.bench;

import dev.runnel.Runnel;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The jobs-table workloads, each with a reference run's figures (Jiggler 0.1.0, Ruby 3.2, on
 * an i7-6700HQ) for comparison: seconds per run, or for idle the %CPU.
 */
public enum TableWorkload {
    NOOP("no-op", Duration.ZERO, Map.of(10, new double[] {26.56, 14.17}, 50, new double[] {26.19, 13.96})),
    HTTP("http", SleepServer.SLEEP, Map.of(10, new double[] {22.86, 23.25}, 50, new double[] {6.45, 6.78},
            100, new double[] {4.49, 4.71})),
    PG_SLEEP("pg_sleep", Duration.ofMillis(100), Map.of(10, new double[] {12.99, 12.95},
            50, new double[] {5.37, 5.38}, 100, new double[] {5.17, 5.39})),
    FILE("file", Duration.ZERO, Map.of(10, new double[] {18.07, 11.95}, 50, new double[] {17.18, 10.9})),
    CPU("cpu", Duration.ZERO, Map.of(10, new double[] {35.45, 35.48}, 50, new double[] {35.93, 35.77})),
    IDLE("idle", Duration.ZERO, Map.of(10, new double[] {1.0, 1.0}, 50, new double[] {1.0, 1.3},
            100, new double[] {1.0, 1.6}));

    /** The most %CPU an idle client may use: the scenario's target. */
    public static final double IDLE_CPU_TARGET = 0.5;
    /** How close an IO-bound row must come to its physical limit: within 10%. */
    public static final double LIMIT_SLACK = 1.10;
    /** How much faster than the reference run the no-op and file rows must be. */
    public static final double SPEEDUP_TARGET = 10;

    private final String label;
    private final Duration jobTime;
    /** By concurrency: the reference run's figure at least once, then at most once. */
    private final Map<Integer, double[]> seed;

    TableWorkload(String label, Duration jobTime, Map<Integer, double[]> seed) {
        this.label = label;
        this.jobTime = jobTime;
        this.seed = seed;
    }

    public String label() {
        return label;
    }

    /**
     * The reference run's figure for this workload at {@code concurrency} in {@code mode}: seconds, or
     * %CPU for idle.
     */
    public Optional<Double> seedFigure(int concurrency, Runnel.Delivery mode) {
        double[] f = seed.get(concurrency);
        return f == null ? Optional.empty() : Optional.of(f[mode == Runnel.Delivery.AT_LEAST_ONCE ? 0 : 1]);
    }

    /**
     * The physical limit of an IO-bound run: jobs x the time each waits / concurrency; empty for the
     * workloads whose time is not set by waiting.
     */
    public Optional<Double> limitSeconds(long jobs, int concurrency) {
        return jobTime.isZero() ? Optional.empty()
                : Optional.of(jobs * (jobTime.toNanos() / 1e9) / concurrency);
    }
}
