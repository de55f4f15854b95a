package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The nice value a thread is given, read back from the kernel's own account of the thread. */
@EnabledOnOs(OS.LINUX)
class ThreadPriorityTest {
    @Test
    void aPlatformThreadGetsTheNiceValueItAsksForAndOthersKeepTheirs() throws Exception {
        assertThat(ThreadPriority.unsupportedReason()).isEmpty();
        AtomicReference<long[]> seen = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                int before = niceOf(currentTid());
                boolean set = ThreadPriority.setCurrentThreadNice(before + 7);
                seen.set(new long[] {before, set ? 1 : 0, niceOf(currentTid()), currentTid()});
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        t.join();
        long[] s = seen.get();
        assertThat(s[1]).as("set").isEqualTo(1);
        assertThat(s[2]).isEqualTo(s[0] + 7);
        // The calling thread alone: this one, another of the same process, is untouched.
        assertThat(niceOf(currentTid())).isEqualTo((int) s[0]);
    }

    @Test
    void aVirtualThreadIsRefusedForItsCarrierIsShared() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            try {
                ThreadPriority.setCurrentThreadNice(5);
            } catch (Throwable e) {
                thrown.set(e);
            }
        }).join();
        assertThat(thrown.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("virtual");
    }

    @Test
    void aPoolRunsJobsOnNamedThreadsAtItsNiceValueAndNeverMoreThreadsThanItsSize() throws Exception {
        JobPool pool = new JobPool("crunch", 3, 12);
        Set<String> names = ConcurrentHashMap.newKeySet();
        Set<Integer> nices = ConcurrentHashMap.newKeySet();
        AtomicInteger atOnce = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(30);
        for (int i = 0; i < 30; i++) {
            pool.execute(() -> {
                mostAtOnce.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
                try {
                    names.add(Thread.currentThread().getName());
                    nices.add(niceOf(currentTid()));
                    Thread.sleep(2);
                } catch (IOException | InterruptedException e) {
                    throw new RuntimeException(e);
                } finally {
                    atOnce.decrementAndGet();
                    done.countDown();
                }
            });
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(names).containsExactlyInAnyOrder("runnel-crunch-1", "runnel-crunch-2", "runnel-crunch-3");
        assertThat(nices).containsExactly(12);
        assertThat(mostAtOnce.get()).isLessThanOrEqualTo(3);
        assertThat(pool.threads()).isEqualTo(3);
        pool.shutdown();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pool.threads() > 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(pool.threads()).isZero();
    }

    @Test
    void raisingThePriorityWithoutThePrivilegeFailsQuietlyAndTheThreadKeepsItsNice() throws Exception {
        AtomicReference<int[]> seen = new AtomicReference<>();
        Thread.ofPlatform().start(() -> {
            try {
                ThreadPriority.setCurrentThreadNice(15);
                // Only root (CAP_SYS_NICE) may go back up; anyone else is refused, and keeps 15.
                boolean raised = ThreadPriority.setCurrentThreadNice(0);
                seen.set(new int[] {raised ? 1 : 0, niceOf(currentTid())});
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }).join();
        boolean privileged = new String(Files.readAllBytes(Path.of("/proc/self/status"))).lines()
                .filter(l -> l.startsWith("CapEff:")).anyMatch(l -> (Long.parseLong(l.substring(7).trim(), 16) & (1L << 23)) != 0);
        assertThat(seen.get()[1]).isEqualTo(privileged ? 0 : 15);
        assertThat(seen.get()[0]).isEqualTo(privileged ? 1 : 0);
    }

    /** The kernel thread id of the calling thread: /proc/thread-self links to /proc/PID/task/TID. */
    static int currentTid() throws IOException {
        return Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
    }

    /** Field 19 of /proc/self/task/TID/stat, counted past the command name, which may hold spaces. */
    static int niceOf(int tid) throws IOException {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(after[19 - 3]);
    }
}
