package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real process deaths: client JVMs SIGKILLed or halting themselves, with short heartbeats and
 * leases ({@link DrainWorkerMain#FAST_LEASE}) so that the test need not wait out the defaults.
 */
class PostgresFailoverTest {
    private static final Duration CHILD_READY = Duration.ofSeconds(60);
    private static final Duration CHILD_MAX_LIFE = Duration.ofMinutes(3);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void whenTheLeadersProcessIsKilledAnotherLeadsWithinTwiceTheLeaseAndItsJobsAreRescued() throws Exception {
        String schema = db.create();
        List<DrainWorkerProcess> children = new ArrayList<>();
        try (Runnel reader = Runnel.builder().driver(PostgresTestSchema.driver(schema)).autoMigrate(true).build()) {
            int jobs = 600;
            DrainCheck.insert(reader, "work", jobs);
            for (int i = 1; i <= 2; i++) {
                children.add(DrainWorkerProcess.start(dir, "node-" + i, PostgresTestSchema.URL, schema, "work", 5,
                        CHILD_MAX_LIFE, Duration.ofMillis(40), true));
            }
            for (DrainWorkerProcess child : children) {
                child.awaitLine("READY", CHILD_READY);
            }
            children.forEach(c -> c.send("GO"));
            Await.until("a leader, and jobs under way", SETTLE, () -> reader.leader().isPresent()
                    && DrainCheck.allJobs(reader).values().stream().filter(j -> j.state() == JobState.COMPLETED).count() > 50);
            String leader = reader.leader().orElseThrow().leaderId();
            DrainWorkerProcess doomed = children.stream().filter(c -> c.clientId().equals(leader)).findFirst().orElseThrow();
            DrainWorkerProcess survivor = children.stream().filter(c -> c != doomed).findFirst().orElseThrow();

            doomed.process().destroyForcibly(); // SIGKILL
            long killed = System.nanoTime();
            doomed.process().waitFor(10, TimeUnit.SECONDS);
            Await.until("the survivor to lead", SETTLE, () -> reader.leader()
                    .filter(l -> l.leaderId().equals(survivor.clientId())).isPresent());
            Duration takeover = Duration.ofNanos(System.nanoTime() - killed);
            System.out.printf("PostgresFailoverTest: %s took over %d ms after %s was killed (lease %d ms)%n",
                    survivor.clientId(), takeover.toMillis(), leader, DrainWorkerMain.FAST_LEASE.toMillis());
            // Within twice the lease, and a second for this loaded machine to notice.
            assertThat(takeover).isLessThan(DrainWorkerMain.FAST_LEASE.multipliedBy(2).plusSeconds(1));

            DrainCheck.awaitCompleted(reader, jobs, SETTLE);
            Map<Long, JobRow> all = DrainCheck.allJobs(reader);
            assertThat(all).hasSize(jobs);
            List<JobRow> rescued = all.values().stream().filter(j -> j.attempt() > 1).toList();
            assertThat(rescued).as("jobs the killed leader was running").isNotEmpty().allSatisfy(j -> {
                assertThat(j.state()).isEqualTo(JobState.COMPLETED);
                assertThat(j.attempt()).isEqualTo(2);
                assertThat(j.attemptedBy()).containsExactly(leader, survivor.clientId());
                assertThat(j.errors()).singleElement().satisfies(e -> assertThat(e.message())
                        .contains("rescued: client " + leader + " stopped heartbeating"));
            });
            assertThat(all.values()).allSatisfy(j -> assertThat(j.state()).isEqualTo(JobState.COMPLETED));
            survivor.stopAndReadIds(Duration.ofSeconds(30));
        } finally {
            children.forEach(DrainWorkerProcess::close);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aCancelFromThisProcessInterruptsAJobRunningInAnotherAtOnce() throws Exception {
        String schema = db.create();
        try (Runnel operator = Runnel.builder().driver(PostgresTestSchema.driver(schema)).autoMigrate(true).build();
                DrainWorkerProcess child = DrainWorkerProcess.start(dir, "busy", PostgresTestSchema.URL, schema, "slow", 1,
                        CHILD_MAX_LIFE, Duration.ofMinutes(1), true)) {
            child.awaitLine("READY", CHILD_READY);
            long id = operator.insert(new DrainJob(1), InsertOptions.builder().queue("slow").build()).id();
            child.send("GO");
            Await.until("the child to run the job", SETTLE,
                    () -> operator.jobGet(id).orElseThrow().state() == JobState.RUNNING);
            long begin = System.nanoTime();
            assertThat(operator.jobs().cancel(id).state()).isEqualTo(JobState.RUNNING);
            Await.until("the job to end cancelled", SETTLE,
                    () -> operator.jobGet(id).orElseThrow().state() == JobState.CANCELLED);
            Duration took = Duration.ofNanos(System.nanoTime() - begin);
            System.out.printf("PostgresFailoverTest: a job running in another JVM was cancelled in %d ms%n", took.toMillis());
            // By notification, well within the poll that backs it up.
            assertThat(took).isLessThan(Duration.ofSeconds(5));
            assertThat(operator.jobGet(id).orElseThrow().lastError().orElseThrow().message())
                    .contains("cancelled by an operator");
            child.stopAndReadIds(Duration.ofSeconds(30));
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aJobThatKillsEveryProcessRunningItIsDiscardedAtItsThirdRescue() throws Exception {
        String schema = db.create();
        // This client only leads: it works no queue, and runs the rescuer.
        try (Runnel leader = Runnel.builder().driver(PostgresTestSchema.driver(schema)).autoMigrate(true)
                .heartbeatInterval(DrainWorkerMain.FAST_HEARTBEAT).heartbeatTimeout(DrainWorkerMain.FAST_TIMEOUT)
                .leaderLease(DrainWorkerMain.FAST_LEASE).build()) {
            leader.start();
            Await.until("the leader to lead", SETTLE, leader::isLeader);
            long id = leader.insert(new DrainJob(DrainWorkerMain.HALT), InsertOptions.builder().queue("deadly").build()).id();
            for (int round = 1; round <= 3; round++) {
                try (DrainWorkerProcess victim = DrainWorkerProcess.start(dir, "victim-" + round, PostgresTestSchema.URL,
                        schema, "deadly", 1, CHILD_MAX_LIFE, Duration.ZERO, true)) {
                    victim.awaitLine("READY", CHILD_READY);
                    victim.send("GO");
                    victim.awaitLine("HALTING " + id, SETTLE);
                    assertThat(victim.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
                    assertThat(victim.process().exitValue()).isEqualTo(137);
                }
                int rescues = round;
                Await.until("rescue " + round, SETTLE, () -> leader.jobGet(id).orElseThrow().errors().size() == rescues);
            }
            JobRow row = leader.jobGet(id).orElseThrow();
            assertThat(row.state()).isEqualTo(JobState.DISCARDED);
            assertThat(row.finalizedAt()).isPresent();
            assertThat(row.attemptedBy()).containsExactly("victim-1", "victim-2", "victim-3");
            assertThat(row.lastError().orElseThrow().message()).contains("rescued 3 times").contains("kills the process");
        }
    }
}
