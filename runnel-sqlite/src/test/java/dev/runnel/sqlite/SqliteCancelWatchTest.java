package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelRequestedParams;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.ForwardingDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How often a client asks the database which of its running jobs someone asked to cancel. */
class SqliteCancelWatchTest {
    @TempDir
    Path dir;
    private final AtomicInteger looks = new AtomicInteger();
    private Runnel worker;
    private Runnel other;

    record Nap(long millis) implements JobArgs {
        @Override
        public String kind() {
            return "nap";
        }
    }

    @AfterEach
    void stop() {
        for (Runnel r : new Runnel[] {worker, other}) {
            if (r != null) {
                r.stop(Duration.ofSeconds(5));
                r.close();
            }
        }
    }

    private Runnel startWorker() {
        Driver counted = new ForwardingDriver(SqliteDriver.open(dir.resolve("jobs.db"))) {
            @Override
            public long[] jobCancelRequested(JobCancelRequestedParams params) {
                looks.incrementAndGet();
                return super.jobCancelRequested(params);
            }
        };
        Runnel r = Runnel.builder().driver(counted).autoMigrate(true).queue("default", 5).worker(Nap.class, job -> {
            long end = System.nanoTime() + Duration.ofMillis(job.args().millis()).toNanos();
            while (System.nanoTime() < end && !job.isCancelled()) {
                Thread.sleep(5);
            }
        }).build();
        r.start();
        return r;
    }

    @Test
    void jobsThatComeOneAtATimeAreNotEachLookedUp() throws Exception {
        worker = startWorker();
        // Ten short jobs, each alone: each starts after the client had nothing running.
        for (int i = 0; i < 10; i++) {
            long id = worker.insert(new Nap(50)).id();
            Await.until("job " + id + " completed",
                    () -> worker.jobs().get(id).orElseThrow().state() == JobState.COMPLETED);
            Thread.sleep(150);
        }
        // The first look comes a second after a start; by then each of these had ended.
        assertThat(looks.get()).isLessThanOrEqualTo(3);
    }

    @Test
    void aCancelFromThisClientLandsAtOnceAndOneFromAnotherWithinTheWatchersPoll() throws Exception {
        worker = startWorker();
        long mine = worker.insert(new Nap(20_000)).id();
        Await.until("running", () -> worker.jobs().get(mine).orElseThrow().state() == JobState.RUNNING);
        long asked = System.nanoTime();
        worker.jobs().cancel(mine);
        Await.until("cancelled", () -> worker.jobs().get(mine).orElseThrow().state() == JobState.CANCELLED);
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofMillis(900));

        // Another client on the file: no signal reaches this one, whose poll finds the cancel.
        other = Runnel.builder().driver(SqliteDriver.open(dir.resolve("jobs.db"))).build();
        long theirs = worker.insert(new Nap(20_000)).id();
        Await.until("running", () -> worker.jobs().get(theirs).orElseThrow().state() == JobState.RUNNING);
        asked = System.nanoTime();
        other.jobs().cancel(theirs);
        Await.until("cancelled", Duration.ofSeconds(5),
                () -> worker.jobs().get(theirs).orElseThrow().state() == JobState.CANCELLED);
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofMillis(2_500));
    }
}
