package dev.runnel;

/**
 * What a queue's jobs run on: virtual threads (the default, for jobs that mostly wait on IO), or a
 * pool of platform threads for CPU-bound jobs, optionally at a lowered operating-system priority.
 *
 * <p>A platform pool has as many threads as the queue has {@code maxWorkers}, started as jobs need
 * them and ended after a minute idle: a claimed job never waits for a thread, and the pool never
 * holds more. Its threads are named {@code runnel-QUEUE-N}.
 *
 * <p>CPU-bound jobs belong on platform threads even at normal priority: a virtual thread is not
 * time-sliced, so a job computing for a while holds its carrier, and every other virtual thread of
 * the JVM (an application's request handlers, if they are virtual) waits behind it.
 *
 * <p><b>Priority.</b> A {@code nice} above 0 lowers the priority of each pool thread on Linux
 * ({@code setpriority} on the thread's own kernel thread id, through the Foreign Function &amp;
 * Memory API), so that request threads of an application the client is embedded in keep their
 * latency while jobs use the CPU the requests leave. 0 leaves the priority as it is. Where it
 * cannot be set (not Linux, or the call is refused), a warning is logged once and jobs run at
 * normal priority. Calling native code is a restricted operation: without
 * {@code --enable-native-access=dev.runnel.core} (module path) or
 * {@code --enable-native-access=ALL-UNNAMED} (class path), or {@code Enable-Native-Access:
 * ALL-UNNAMED} in an executable jar's manifest, the JVM prints a warning the first time and the
 * priority is still set. Virtual threads cannot be given a priority of their own: they share
 * carrier threads with every other virtual thread of the JVM.
 *
 * @see RunnelBuilder#queue(String, int, QueueExecutor)
 * @see RunnelBuilder#embedded(boolean)
 */
public sealed interface QueueExecutor {
    /** The lowest priority Linux gives a thread: nice {@value}. */
    int MAX_NICE = 19;
    /**
     * The nice value of job threads in {@linkplain RunnelBuilder#embedded embedded mode}: {@value},
     * what {@code nice(1)} applies by default. On Linux's scheduler a nice-10 thread weighs about a
     * tenth of a nice-0 one, so a request thread that wakes finds the CPU soon.
     */
    int EMBEDDED_NICE = 10;
    /**
     * The most threads a platform pool may have: {@value}. Wider than this, CPU-bound jobs only
     * contend; IO-bound jobs belong on virtual threads.
     */
    int MAX_PLATFORM_THREADS = 1_000;

    /**
     * Jobs run on virtual threads: the default, cheap by the thousand, for IO-bound jobs. Each job
     * that blocks has a thread of its own, and jobs that end at once run one after another on the
     * few threads that are already running (see {@link VirtualThreads}).
     */
    static QueueExecutor virtualThreads() {
        return VirtualThreads.INSTANCE;
    }

    /** Jobs run on a pool of platform threads, one per worker slot, at normal priority. */
    static QueueExecutor platformThreads() {
        return new PlatformThreads(0);
    }

    /**
     * Jobs run on a pool of platform threads, one per worker slot, each at {@code nice} (0 to
     * {@value #MAX_NICE}; higher is lower priority) on Linux.
     */
    static QueueExecutor platformThreads(int nice) {
        return new PlatformThreads(nice);
    }

    /**
     * Jobs on virtual threads, as many at once as the queue's {@code maxWorkers}. Threads start as
     * jobs wait for them: each new thread, as it begins, starts the next while a claimed job still
     * waits with a slot free, so jobs that block each start on a thread of their own within
     * microseconds of one another; a thread whose job ends goes on to the next job waiting. A
     * claim of a thousand jobs that end at once so runs on a few threads, not a thousand. A job
     * must not rely on its thread being its own after it returns (a {@code ThreadLocal} it set is
     * still there for the next job on that thread).
     */
    record VirtualThreads() implements QueueExecutor {
        static final VirtualThreads INSTANCE = new VirtualThreads();

        @Override
        public String toString() {
            return "virtual threads";
        }
    }

    /**
     * A pool of platform threads, as many as the queue's {@code maxWorkers}, each at {@code nice}.
     *
     * @param nice 0 (unchanged) to {@value QueueExecutor#MAX_NICE} (lowest priority)
     */
    record PlatformThreads(int nice) implements QueueExecutor {
        public PlatformThreads {
            if (nice < 0 || nice > MAX_NICE) {
                throw new IllegalArgumentException("nice must be between 0 (normal priority) and " + MAX_NICE
                        + " (lowest), was " + nice);
            }
        }

        @Override
        public String toString() {
            return "platform threads at nice " + nice;
        }
    }
}
