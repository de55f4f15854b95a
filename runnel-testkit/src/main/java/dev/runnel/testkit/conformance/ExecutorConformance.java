package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobEvent;
import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.QueueExecutor;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a queue's jobs run on: virtual threads by default, or a pool of platform threads named
 * after the queue, bounded by its workers, at the nice value asked for (read back from the
 * kernel's {@code /proc/self/task/TID/stat} on Linux), stopped as gracefully as virtual ones.
 */
public abstract class ExecutorConformance extends DriverConformance {
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");

    private final EventRecorder events = new EventRecorder();

    /** The thread a job ran on, as the job saw it. */
    private record Seen(String name, boolean virtual, int tid, int nice) {}

    private static Seen current() {
        Thread t = Thread.currentThread();
        if (!LINUX || t.isVirtual()) {
            return new Seen(t.getName(), t.isVirtual(), -1, -1);
        }
        int tid = currentTid();
        return new Seen(t.getName(), false, tid, niceOf(tid));
    }

    @Test
    void aPlatformQueueRunsItsJobsOnThreadsNamedAfterItAtItsNiceNeverMoreThanItsWorkers() {
        Map<Long, Seen> seen = new ConcurrentHashMap<>();
        AtomicInteger atOnce = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        Runnel runnel = started(client().queue("crunch", 3, QueueExecutor.platformThreads(11)).listener(events)
                .worker(TestArgs.class, job -> {
                    peak.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
                    try {
                        seen.put(job.id(), current());
                        Thread.sleep(5);
                    } finally {
                        atOnce.decrementAndGet();
                    }
                }));
        for (int i = 0; i < 30; i++) {
            runnel.insert(new TestArgs("n", i), dev.runnel.InsertOptions.builder().queue("crunch").build());
        }
        events.awaitCount(30, Duration.ofSeconds(20));
        assertThat(events.events()).extracting(JobEvent::type).containsOnly(JobEvent.Type.COMPLETED);
        assertThat(seen).hasSize(30);
        assertThat(seen.values()).allSatisfy(s -> {
            assertThat(s.virtual()).isFalse();
            assertThat(s.name()).matches("runnel-crunch-[123]");
        });
        assertThat(peak.get()).isBetween(1, 3);
        if (LINUX) {
            assertThat(seen.values()).extracting(Seen::nice).containsOnly(11);
            assertThat(seen.values().stream().map(Seen::tid).distinct().count()).isBetween(1L, 3L);
        }
    }

    @Test
    void theNiceValueIsTheKernelsAsAnotherThreadReadsItWhileTheJobRuns() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger tid = new AtomicInteger();
        Runnel runnel = started(client().queue("default", 1, QueueExecutor.platformThreads(QueueExecutor.MAX_NICE))
                .listener(events).worker(TestArgs.class, job -> {
                    tid.set(LINUX ? currentTid() : -1);
                    started.countDown();
                    release.await();
                }));
        long id = runnel.insert(new TestArgs("hold", 1)).id();
        started.await();
        if (LINUX) {
            assertThat(niceOf(tid.get())).isEqualTo(QueueExecutor.MAX_NICE);
            assertThat(niceOf(currentTid())).as("the test's own thread").isNotEqualTo(QueueExecutor.MAX_NICE);
        }
        release.countDown();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
    }

    @Test
    void embeddedQueuesRunAtLoweredPriorityUnlessGivenAnExecutorAndTheDefaultStaysVirtual() {
        Map<String, Seen> seen = new ConcurrentHashMap<>();
        Runnel runnel = started(client().embedded(true).queue("default", 2)
                .queue("io", 2, QueueExecutor.virtualThreads()).listener(events)
                .worker(TestArgs.class, job -> seen.put(job.queue(), current())));
        runnel.insert(new TestArgs("a", 1));
        runnel.insert(new TestArgs("b", 2), dev.runnel.InsertOptions.builder().queue("io").build());
        events.awaitCount(2, Duration.ofSeconds(20));
        assertThat(seen.get("default").virtual()).isFalse();
        assertThat(seen.get("default").name()).startsWith("runnel-default-");
        if (LINUX) {
            assertThat(seen.get("default").nice()).isEqualTo(QueueExecutor.EMBEDDED_NICE);
        }
        assertThat(seen.get("io").virtual()).isTrue();

        Map<String, Seen> plain = new ConcurrentHashMap<>();
        EventRecorder more = new EventRecorder();
        Runnel notEmbedded = started(client().clientId("plain").queue("other", 1).listener(more)
                .worker(TestArgs.class, job -> plain.put(job.queue(), current())));
        notEmbedded.insert(new TestArgs("c", 3), dev.runnel.InsertOptions.builder().queue("other").build());
        more.awaitCount(1, Duration.ofSeconds(20));
        assertThat(plain.get("other").virtual()).isTrue();
    }

    @Test
    void stopLetsPoolJobsFinishThenCancelsTheRestAndEndsThePoolsThreads() throws Exception {
        CountDownLatch started = new CountDownLatch(3);
        AtomicInteger cancelledSeen = new AtomicInteger();
        Runnel runnel = started(client().queue("default", 3, QueueExecutor.platformThreads(5)).listener(events)
                .worker(TestArgs.class, job -> {
                    started.countDown();
                    if (job.args().value() == 0) {
                        Thread.sleep(300); // finishes within the stop's patience
                        return;
                    }
                    try {
                        Thread.sleep(60_000);
                    } finally {
                        if (job.isCancelled()) {
                            cancelledSeen.incrementAndGet();
                        }
                    }
                }));
        long finisher = runnel.insert(new TestArgs("finish", 0)).id();
        for (int i = 1; i <= 2; i++) {
            runnel.insert(new TestArgs("stuck", i));
        }
        started.await();
        long begin = System.nanoTime();
        runnel.stop(Duration.ofMillis(600));
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(5));
        assertThat(runnel.jobGet(finisher).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        assertThat(cancelledSeen).hasValue(2);
        assertThat(runnel.jobList(JobQuery.inStates(JobState.RUNNING))).isEmpty();
        List<dev.runnel.JobRow> sentBack = runnel.jobList(JobQuery.inStates(JobState.RETRYABLE));
        assertThat(sentBack).hasSize(2).allSatisfy(row ->
                assertThat(row.lastError().orElseThrow().message()).contains("client stopping"));
        Await.until("the pool's threads end", () -> poolThreads("runnel-default-").isEmpty());
    }

    @Test
    void aCancelledJobsInterruptDoesNotReachTheNextJobOnTheSameThread() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Set<Boolean> interruptedAtStart = ConcurrentHashMap.newKeySet();
        Runnel runnel = started(client().queue("default", 1, QueueExecutor.platformThreads()).listener(events)
                .worker(TestArgs.class, job -> {
                    interruptedAtStart.add(Thread.currentThread().isInterrupted());
                    if (job.args().value() == 0) {
                        started.countDown();
                        Thread.sleep(60_000);
                    }
                }));
        long stuck = runnel.insert(new TestArgs("stuck", 0)).id();
        started.await();
        runnel.jobs().cancel(stuck);
        assertThat(events.await(stuck).type()).isEqualTo(JobEvent.Type.CANCELLED);
        long next = runnel.insert(new TestArgs("next", 1)).id();
        assertThat(events.await(next).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(interruptedAtStart).containsOnly(false);
    }

    private static Set<String> poolThreads(String prefix) {
        Set<String> names = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                names.add(t.getName());
            }
        }
        return names;
    }

    /** The calling thread's kernel id: /proc/thread-self links to PID/task/TID. */
    private static int currentTid() {
        try {
            return Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Field 19 (nice) of /proc/self/task/TID/stat, counted after the command name, which may hold spaces. */
    private static int niceOf(int tid) {
        try {
            String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
