package dev.runnel.internal;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform threads of one queue that runs CPU-bound jobs: at most the queue's
 * {@code maxWorkers} of them, each at the queue's nice value, named {@code runnel-QUEUE-N}, started
 * as jobs need them and ended after {@link #IDLE} without one.
 *
 * <p>The producer never hands it more jobs than it has threads, so a job does not wait in its queue
 * beyond the instant between a thread freeing its slot and taking the next job. Threads are
 * daemons, as virtual threads are: a job that ignores cancellation does not keep the JVM alive.
 */
final class JobPool {
    private static final Logger LOG = LoggerFactory.getLogger(JobPool.class);
    /** How long a thread waits for another job before it ends: long enough to outlast a pause between batches. */
    private static final long IDLE = TimeUnit.MINUTES.toNanos(1);

    private final ThreadPoolExecutor executor;

    JobPool(String queue, int threads, int nice) {
        AtomicInteger count = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, IDLE, TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>(),
                task -> Thread.ofPlatform().name("runnel-" + queue + "-" + count.incrementAndGet()).daemon()
                        .unstarted(() -> {
                            if (nice != 0) {
                                ThreadPriority.setCurrentThreadNice(nice);
                            }
                            task.run();
                        }));
        executor.allowCoreThreadTimeOut(true);
        LOG.info("queue {} runs its jobs on up to {} platform threads{}", queue, threads,
                nice == 0 ? "" : " at nice " + nice);
    }

    /** Runs {@code job} on a pool thread. */
    void execute(Runnable job) {
        executor.execute(job);
    }

    /** Ends the threads once their jobs return; called after the producer's jobs are finished or cancelled. */
    void shutdown() {
        executor.shutdown();
    }

    /** Threads alive now, for tests. */
    int threads() {
        return executor.getPoolSize();
    }
}
