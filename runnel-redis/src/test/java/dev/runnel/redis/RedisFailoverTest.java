package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.LocalRedis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real process faults on Redis: a client JVM that leads SIGKILLed mid-run, and a client JVM
 * stopped with SIGSTOP past its heartbeat timeout, then resumed. Short heartbeats and lease
 * ({@link RedisWorkerMain#fast}) keep the waits to seconds.
 */
class RedisFailoverTest {
    private static final Duration CHILD_READY = Duration.ofSeconds(60);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void whenTheLeadingWorkersProcessIsKilledAnotherLeadsWithinTwiceTheLeaseAndCompletesItsJobs() throws Exception {
        String url = LocalRedis.shared().freshUrl();
        List<RedisWorkerProcess> children = new ArrayList<>();
        try (Runnel reader = Runnel.builder().driver(RedisDriver.open(url)).autoMigrate(true).build()) {
            int jobs = 400;
            Set<Long> inserted = new HashSet<>(FaultCheck.insert(reader, "work", 0, jobs));
            for (int i = 1; i <= 2; i++) {
                children.add(RedisWorkerProcess.start(dir, url, "work", 5, "node-" + i, Duration.ofMillis(40)));
            }
            for (RedisWorkerProcess child : children) {
                child.awaitLine("READY", CHILD_READY);
            }
            children.forEach(c -> c.send("GO"));
            Await.until("a leader, and jobs under way", SETTLE, () -> reader.leader().isPresent()
                    && children.stream().allMatch(c -> c.worked().size() > 20));
            String leader = reader.leader().orElseThrow().leaderId();
            RedisWorkerProcess doomed = children.stream().filter(c -> c.clientId().equals(leader)).findFirst().orElseThrow();
            RedisWorkerProcess survivor = children.stream().filter(c -> c != doomed).findFirst().orElseThrow();

            doomed.process().destroyForcibly(); // SIGKILL
            long killed = System.nanoTime();
            assertThat(doomed.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            Await.until("the survivor to lead", SETTLE,
                    () -> reader.leader().filter(l -> l.leaderId().equals(survivor.clientId())).isPresent());
            Duration takeover = Duration.ofNanos(System.nanoTime() - killed);
            System.out.printf("RedisFailoverTest: %s took over %d ms after %s was killed (lease %d ms)%n",
                    survivor.clientId(), takeover.toMillis(), leader, RedisWorkerMain.LEASE.toMillis());
            // Within twice the lease, and a second for this loaded machine to notice.
            assertThat(takeover).isLessThan(RedisWorkerMain.LEASE.multipliedBy(2).plusSeconds(1));

            FaultCheck.awaitAllCompleted(reader, jobs, SETTLE);
            survivor.stop(Duration.ofSeconds(30));
            Map<Long, JobRow> all = FaultCheck.allJobs(reader);
            assertThat(all.keySet()).isEqualTo(inserted);
            List<JobRow> rescued = all.values().stream().filter(j -> j.attempt() > 1).toList();
            assertThat(rescued).as("jobs the killed leader was running").isNotEmpty().allSatisfy(j -> {
                assertThat(j.state()).isEqualTo(JobState.COMPLETED);
                assertThat(j.attemptedBy()).containsExactly(leader, survivor.clientId());
                assertThat(j.errors()).singleElement().satisfies(e -> assertThat(e.message())
                        .contains("rescued: client " + leader + " stopped heartbeating"));
                // Not necessarily in doomed.worked(): a job it claimed may not have started yet
                // (claimed ahead of a free slot), or its line may not have left the killed process.
            });
            // Every job either one of them worked; none lost.
            Set<Long> worked = new HashSet<>(doomed.worked());
            worked.addAll(survivor.worked());
            assertThat(worked).isEqualTo(inserted);
        } finally {
            children.forEach(RedisWorkerProcess::close);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aClientStoppedPastItsHeartbeatTimeoutHasItsJobsRescuedAndItsLateCompletionsChangeNothing() throws Exception {
        String url = LocalRedis.shared().freshUrl();
        int jobs = 5;
        try (Runnel leader = RedisWorkerMain.fast(Runnel.builder()).driver(RedisDriver.open(url)).autoMigrate(true)
                        .clientId("overseer").build();
                RedisWorkerProcess sleeper = RedisWorkerProcess.start(dir, url, "slow", jobs, "sleeper",
                        Duration.ofSeconds(1))) {
            // This client works no queue: it leads, and so runs the rescuer.
            leader.start();
            Await.until("the overseer to lead", SETTLE, leader::isLeader);
            Set<Long> inserted = new HashSet<>(FaultCheck.insert(leader, "slow", 0, jobs));
            sleeper.awaitLine("READY", CHILD_READY);
            sleeper.send("GO");
            Await.until("the sleeper to run every job", SETTLE, () -> sleeper.worked().size() == jobs);
            sleeper.signal("STOP");

            FaultWorker worker = new FaultWorker(Duration.ZERO);
            try (Runnel other = RedisWorkerMain.fast(Runnel.builder()).driver(RedisDriver.open(url)).queue("slow", 5)
                    .worker(FaultJob.class, worker).clientId("other").fetchPollInterval(Duration.ofMillis(100)).build()) {
                other.start();
                FaultCheck.awaitAllCompleted(leader, jobs, SETTLE);
                Map<Long, JobRow> before = FaultCheck.allJobs(leader);
                assertThat(worker.ids()).containsExactlyInAnyOrderElementsOf(inserted);
                assertThat(before.values()).allSatisfy(j -> {
                    assertThat(j.state()).isEqualTo(JobState.COMPLETED);
                    assertThat(j.attempt()).isEqualTo(2);
                    assertThat(j.attemptedBy()).containsExactly("sleeper", "other");
                    assertThat(j.errors()).singleElement().satisfies(e -> assertThat(e.message())
                            .contains("rescued: client sleeper stopped heartbeating"));
                });

                // Resumed, the sleeper finishes its jobs and writes their outcomes: fenced, they change nothing.
                sleeper.signal("CONT");
                sleeper.stop(Duration.ofSeconds(30));
                assertThat(FaultCheck.allJobs(leader)).isEqualTo(before);
                assertThat(leader.jobCounts()).singleElement()
                        .satisfies(c -> assertThat(c.state()).isEqualTo(JobState.COMPLETED));
            }
        }
    }
}
