package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobEvent;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientListDeadParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.driver.RescuedJob;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import dev.runnel.testkit.KillableDriver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rescuer: the running jobs of a dead client go back to be run again (or are discarded when
 * they keep killing their process), those of a live client never, and those of an unknown client
 * past the threshold; a rescued client's late writes change nothing.
 */
public abstract class RescueConformance extends DriverConformance {
    private static final Duration THRESHOLD = Duration.ofHours(1);

    private Lease lead() {
        driver.leaderAttemptElect(new LeaderElectParams("leader", clock.instant(), clock.instant().plus(Duration.ofDays(1))));
        return new Lease("leader", clock.instant());
    }

    private void heartbeat(String client, Duration ttl) {
        driver.clientHeartbeat(new ClientHeartbeatParams(client, clock.instant(), clock.instant().plus(ttl), "{}"));
    }

    private long insert(String name, InsertOptions options) {
        return inserter().insert(new TestArgs(name, 0), options).id();
    }

    private List<JobRow> claim(String client, int max) {
        return driver.jobClaim(new JobClaimParams("default", max, clock.instant(), client));
    }

    private List<RescuedJob> rescue(List<String> dead, Instant staleBefore) {
        return driver.jobRescueMany(new JobRescueParams(new Lease("leader", clock.instant()), dead, staleBefore,
                THRESHOLD, 3, 1_000));
    }

    private JobRow job(long id) {
        return driver.jobGet(id).orElseThrow();
    }

    @Test
    void aDeadClientIsMarkedRescuedOnlyOnceNoneOfItsJobsIsRunning() {
        lead();
        heartbeat("dead", Duration.ofSeconds(10));
        long a = insert("a", InsertOptions.NONE);
        assertThat(claim("dead", 10)).extracting(JobRow::id).containsExactly(a);
        clock.advance(Duration.ofSeconds(20));
        Lease lease = new Lease("leader", clock.instant());
        // A rescue that did nothing (its lease had lapsed, say) must not let the mark through.
        driver.clientMarkRescued(new ClientRescuedParams(lease, List.of("dead")));
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).containsExactly("dead");
        assertThat(rescue(List.of("dead"), Instant.EPOCH)).extracting(RescuedJob::id).containsExactly(a);
        driver.clientMarkRescued(new ClientRescuedParams(lease, List.of("dead")));
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).isEmpty();
    }

    @Test
    void theRunningJobsOfADeadClientAreRescuedAndNothingElse() {
        lead();
        heartbeat("dead", Duration.ofSeconds(10));
        heartbeat("alive", Duration.ofDays(1));
        long a = insert("a", InsertOptions.NONE);
        long b = insert("b", InsertOptions.NONE);
        List<JobRow> first = claim("dead", 1);
        driver.jobCompleteMany(JobCompleteManyParams.of(first, T0));
        assertThat(first.getFirst().id()).isEqualTo(a);
        claim("dead", 1);
        long onAlive = insert("c", InsertOptions.NONE);
        clock.advance(Duration.ofMillis(1));
        claim("alive", 1);
        long waiting = insert("waiting", InsertOptions.NONE);
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).isEmpty();

        clock.advance(Duration.ofSeconds(20));
        List<String> dead = driver.clientListDead(new ClientListDeadParams(clock.instant()));
        assertThat(dead).containsExactly("dead");
        List<RescuedJob> rescued = rescue(dead, Instant.EPOCH);
        assertThat(rescued).containsExactly(new RescuedJob(b, JobState.RETRYABLE, "dead"));
        JobRow row = job(b);
        assertThat(row.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(row.scheduledAt()).isEqualTo(clock.instant());
        assertThat(row.attempt()).isEqualTo(1);
        assertThat(row.finalizedAt()).isEmpty();
        assertThat(row.errors()).singleElement().satisfies(e -> {
            assertThat(e.attempt()).isEqualTo(1);
            assertThat(e.at()).isEqualTo(clock.instant());
            assertThat(e.message()).contains("rescued").contains("client dead").contains("stopped heartbeating");
        });
        assertThat(job(a).state()).isEqualTo(JobState.COMPLETED);
        assertThat(job(onAlive).state()).isEqualTo(JobState.RUNNING);
        assertThat(job(waiting).state()).isEqualTo(JobState.AVAILABLE);

        // Done with that client: not listed again...
        driver.clientMarkRescued(new ClientRescuedParams(new Lease("leader", clock.instant()), dead));
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).isEmpty();
        // ...unless it comes back and dies again.
        heartbeat("dead", Duration.ofSeconds(10));
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).isEmpty();
        clock.advance(Duration.ofSeconds(11));
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).containsExactly("dead");
    }

    @Test
    void aJobOnALiveClientIsNeverRescuedHoweverLongItRuns() {
        lead();
        heartbeat("alive", Duration.ofSeconds(10));
        long id = insert("long", InsertOptions.NONE);
        claim("alive", 1);
        for (int day = 0; day < 3; day++) {
            clock.advance(Duration.ofDays(1));
            heartbeat("alive", Duration.ofSeconds(10));
            lead();
            assertThat(rescue(driver.clientListDead(new ClientListDeadParams(clock.instant())), clock.instant().minus(THRESHOLD))).isEmpty();
        }
        assertThat(job(id).state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aJobOfAnUnregisteredClientIsRescuedOncePastTheThreshold() {
        lead();
        long id = insert("orphan", InsertOptions.NONE);
        JobRow claimed = claim("ghost", 1).getFirst();
        Instant started = claimed.attemptedAt().orElseThrow();
        assertThat(rescue(List.of(), started)).isEmpty();
        assertThat(rescue(List.of(), started.plusNanos(1_000))).containsExactly(new RescuedJob(id, JobState.RETRYABLE, "ghost"));
        assertThat(job(id).lastError().orElseThrow().message())
                .contains("ran longer than " + THRESHOLD).contains("ghost").contains("not registered");
    }

    @Test
    void theLeadersSweepRescuesAJobOfAnUnregisteredClientOncePastTheThreshold() {
        EventRecorder events = new EventRecorder();
        long id = insert("left by an old version", InsertOptions.NONE);
        claim("ghost", 1);
        Runnel runnel = started(client().queue("default", 1).listener(events).jobTimeout(Duration.ZERO)
                .rescueThreshold(Duration.ofSeconds(1)).worker(TestArgs.class, job -> {}));
        Await.until("the client to lead", runnel::isLeader);
        clock.advance(Duration.ofSeconds(2));
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        JobRow row = job(id);
        assertThat(row.attempt()).isEqualTo(2);
        assertThat(row.attemptedBy()).containsExactly("ghost", runnel.id());
        assertThat(row.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("not registered"));
    }

    @Test
    void theThirdRescueDiscardsAJobThatKeepsKillingItsProcess() {
        long id = insert("poison pill", InsertOptions.builder().maxAttempts(25).build());
        for (int round = 1; round <= 3; round++) {
            lead();
            String client = "victim-" + round;
            heartbeat(client, Duration.ofSeconds(10));
            driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100));
            assertThat(claim(client, 1)).extracting(JobRow::id).containsExactly(id);
            clock.advance(Duration.ofSeconds(11));
            lead();
            List<RescuedJob> rescued = rescue(driver.clientListDead(new ClientListDeadParams(clock.instant())), Instant.EPOCH);
            assertThat(rescued).singleElement().satisfies(r ->
                    assertThat(r.state()).isEqualTo(JobState.DISCARDED.equals(r.state()) ? JobState.DISCARDED : JobState.RETRYABLE));
            driver.clientMarkRescued(new ClientRescuedParams(new Lease("leader", clock.instant()), List.of(client)));
        }
        JobRow row = job(id);
        assertThat(row.state()).isEqualTo(JobState.DISCARDED);
        assertThat(row.finalizedAt()).contains(clock.instant());
        assertThat(row.attempt()).isEqualTo(3);
        assertThat(row.errors()).hasSize(3);
        assertThat(row.errors().get(1).message()).doesNotContain("discarded");
        assertThat(row.lastError().orElseThrow().message()).contains("client victim-3").contains("rescued 3 times")
                .contains("kills the process");
    }

    @Test
    void aRescueOfALastAttemptDiscards() {
        lead();
        heartbeat("dead", Duration.ofSeconds(10));
        long id = insert("last", InsertOptions.builder().maxAttempts(1).build());
        claim("dead", 1);
        clock.advance(Duration.ofSeconds(11));
        lead();
        assertThat(rescue(List.of("dead"), Instant.EPOCH)).containsExactly(new RescuedJob(id, JobState.DISCARDED, "dead"));
        assertThat(job(id).lastError().orElseThrow().message()).contains("out of attempts");
        assertThat(job(id).finalizedAt()).contains(clock.instant());
    }

    @Test
    void withoutTheLeaseNothingIsRescued() {
        lead();
        heartbeat("dead", Duration.ofSeconds(10));
        long id = insert("x", InsertOptions.NONE);
        claim("dead", 1);
        clock.advance(Duration.ofSeconds(11));
        // The lease ran out (it was taken a day before) for "leader"? No: an impostor asks.
        assertThat(driver.jobRescueMany(new JobRescueParams(new Lease("impostor", clock.instant()), List.of("dead"),
                Instant.EPOCH, THRESHOLD, 3, 100))).isEmpty();
        driver.clientMarkRescued(new ClientRescuedParams(new Lease("impostor", clock.instant()), List.of("dead")));
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).containsExactly("dead");
        // A leader whose lease ended cannot rescue either, even if nobody took the lease over.
        clock.advance(Duration.ofDays(2));
        assertThat(rescue(List.of("dead"), Instant.EPOCH)).isEmpty();
        assertThat(job(id).state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void twoClientsThatBothBelieveTheyLeadRescueEachJobOnceAndCleanAsOne() {
        // "old" led, was paused past its lease, and "new" took over; "old" resumes and, before its
        // elector tells it otherwise, runs a round of maintenance: every statement it sends must
        // change nothing, while the real leader's do their work once.
        heartbeat("dead", Duration.ofSeconds(10));
        long id = insert("stuck", InsertOptions.NONE);
        claim("dead", 1);
        driver.leaderAttemptElect(new LeaderElectParams("old", clock.instant(), clock.instant().plusSeconds(10)));
        clock.advance(Duration.ofSeconds(11));
        assertThat(driver.leaderAttemptElect(new LeaderElectParams("new", clock.instant(),
                clock.instant().plusSeconds(10)))).isTrue();
        List<String> dead = driver.clientListDead(new ClientListDeadParams(clock.instant()));
        assertThat(dead).containsExactly("dead");
        for (String leader : List.of("old", "new", "old", "new")) {
            Lease lease = new Lease(leader, clock.instant());
            driver.jobRescueMany(new JobRescueParams(lease, dead, Instant.EPOCH, THRESHOLD, 3, 100));
            driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100));
            driver.clientMarkRescued(new ClientRescuedParams(lease, dead));
            driver.jobDeleteFinalized(new dev.runnel.driver.JobDeleteFinalizedParams(lease, JobState.COMPLETED,
                    clock.instant(), 100));
        }
        JobRow row = job(id);
        // Rescued once (one error), then made available once by the idempotent scheduler.
        assertThat(row.errors()).hasSize(1);
        assertThat(row.state()).isEqualTo(JobState.AVAILABLE);
        assertThat(row.attempt()).isEqualTo(1);
        assertThat(driver.clientListDead(new ClientListDeadParams(clock.instant()))).isEmpty();
        assertThat(driver.leaderGet().orElseThrow().leaderId()).isEqualTo("new");
    }

    @Test
    void aDeadClientsJobsAreRescuedAndItsLateCompletionIsIgnored() throws Exception {
        EventRecorder survivorEvents = new EventRecorder();
        EventRecorder deadEvents = new EventRecorder();
        CompletionWatch watched = new CompletionWatch(driver);
        KillableDriver cut = new KillableDriver(watched);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Set<String> workedBy = ConcurrentHashMap.newKeySet();
        Runnel doomed = started(client().driver(cut).clientId("doomed").queue("default", 5).listener(deadEvents)
                .worker(TestArgs.class, job -> {
                    workedBy.add("doomed");
                    started.countDown();
                    release.await();
                }));
        Await.until("the doomed client to lead", doomed::isLeader);
        long id = doomed.insert(new TestArgs("survives", 1)).id();
        started.await();
        Runnel survivor = started(client().clientId("survivor").queue("default", 5).listener(survivorEvents)
                .worker(TestArgs.class, job -> workedBy.add("survivor")));
        cut.kill();
        // Past the dead client's heartbeat timeout and its lease (both 1 s in tests).
        clock.advance(Duration.ofSeconds(2));
        JobEvent event = survivorEvents.await(id);
        assertThat(event.type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(event.job().attempt()).isEqualTo(2);
        assertThat(survivor.isLeader()).isTrue();
        JobRow row = job(id);
        assertThat(row.state()).isEqualTo(JobState.COMPLETED);
        assertThat(row.attemptedBy()).containsExactly("doomed", "survivor");
        assertThat(row.errors()).singleElement().satisfies(e -> assertThat(e.message())
                .contains("rescued: client doomed stopped heartbeating"));
        // The dead client comes back and finishes its attempt: the write finds the job moved on.
        cut.revive();
        release.countDown();
        assertThat(watched.awaitAnswered(id)).as("the late completion wrote the job").isFalse();
        // The stop writes and publishes whatever is left: an event for the dropped write would be out.
        doomed.stop(Duration.ofSeconds(5));
        assertThat(deadEvents.of(id)).isEmpty();
        assertThat(job(id).finalizedAt()).isEqualTo(row.finalizedAt());
        assertThat(workedBy).containsExactlyInAnyOrder("doomed", "survivor");
    }

    @Test
    void aJobThatKillsEveryClientRunningItEndsDiscardedAfterThreeRescues() throws Exception {
        // A healthy leader, working another queue, rescues; three clients in turn take the job and
        // are cut off while running it, as a job that makes its process run out of memory would.
        Runnel leader = started(client().clientId("leader"));
        Await.until("the leader to lead", leader::isLeader);
        long id = leader.insert(new TestArgs("kills its process", 1), InsertOptions.builder().queue("deadly").build()).id();
        List<KillableDriver> cuts = new ArrayList<>();
        // Each victim's job runs until the test is over, as in a process that is gone; then it
        // returns, so that stopping the victims does not wait out their stop timeout.
        CountDownLatch over = new CountDownLatch(1);
        for (int round = 1; round <= 3; round++) {
            KillableDriver cut = new KillableDriver(driver);
            cuts.add(cut);
            CountDownLatch running = new CountDownLatch(1);
            started(client().driver(cut).clientId("victim-" + round).queue("deadly", 1).worker(TestArgs.class, job -> {
                running.countDown();
                over.await(60, TimeUnit.SECONDS);
            }));
            running.await();
            cut.kill();
            clock.advance(Duration.ofSeconds(2));
            int rescues = round;
            Await.until("rescue number " + round, () -> job(id).errors().size() == rescues);
        }
        JobRow row = job(id);
        assertThat(row.state()).isEqualTo(JobState.DISCARDED);
        assertThat(row.attemptedBy()).containsExactly("victim-1", "victim-2", "victim-3");
        assertThat(row.lastError().orElseThrow().message()).contains("rescued 3 times");
        cuts.forEach(KillableDriver::revive);
        over.countDown();
    }
}
