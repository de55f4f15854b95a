package dev.runnel.bench;

import java.lang.management.ManagementFactory;

/**
 * What one phase of a run cost this process: CPU time (every thread, the JIT and the garbage
 * collector included, and on SQLite the database's own work) and heap bytes allocated by all
 * threads, virtual threads' allocations counted on their carriers. Read at the phase's start
 * and end; {@link #perJob} divides the difference.
 */
public final class WorkCost {
    /** Per job: CPU microseconds and heap bytes allocated; -1 where the JVM does not report it. */
    public record PerJob(double cpuMicros, double allocBytes) {}

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final long cpuNanos;
    private final long allocated;

    private WorkCost(long cpuNanos, long allocated) {
        this.cpuNanos = cpuNanos;
        this.allocated = allocated;
    }

    static WorkCost now() {
        return new WorkCost(OS.getProcessCpuTime(), allocatedBytes());
    }

    /** The cost from this reading to now, per job of {@code jobs}. */
    PerJob perJob(long jobs) {
        long cpu = OS.getProcessCpuTime();
        long alloc = allocatedBytes();
        if (jobs <= 0) {
            return new PerJob(-1, -1);
        }
        return new PerJob(cpu < 0 || cpuNanos < 0 ? -1 : (cpu - cpuNanos) / 1e3 / jobs,
                alloc < 0 || allocated < 0 ? -1 : (double) (alloc - allocated) / jobs);
    }

    private static long allocatedBytes() {
        return THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled()
                ? THREADS.getTotalThreadAllocatedBytes() : -1;
    }
}
