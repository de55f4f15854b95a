package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertRequest;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.KeyLimit;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.RuntimeListener;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueRegisterParams;
import dev.runnel.testkit.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Global limits: at most N jobs of a queue running across all clients, enforced in the claim. */
public abstract class LimitConformance extends DriverConformance {
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger highest = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();

    private RunnelBuilder limitedWorker(int maxWorkers, int limit) {
        RunnelBuilder b = client().queue("default", maxWorkers).worker(TestArgs.class, job -> {
            highest.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(job.args().value());
            } finally {
                running.decrementAndGet();
                done.incrementAndGet();
            }
        });
        return limit > 0 ? b.globalLimit("default", limit) : b;
    }

    private void insertJobs(int count, int millis) {
        inserter().insertMany(IntStream.range(0, count).mapToObj(i -> InsertRequest.of(new TestArgs("j" + i, millis))).toList());
    }

    private void awaitDone(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (done.get() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(done.get()).isEqualTo(count);
    }

    private List<JobRow> claimLimited(String client, int max) {
        return driver.jobClaim(new JobClaimParams("default", max, clock.instant(), client, false, true));
    }

    @Test
    void theLimitHoldsAcrossThreeClients() throws Exception {
        for (int i = 0; i < 3; i++) {
            started(limitedWorker(10, 4));
        }
        insertJobs(90, 15);
        awaitDone(90);
        assertThat(highest.get()).isBetween(1, 4);
        assertThat(inserter().queues().get("default").orElseThrow().globalLimit()).hasValue(4);
    }

    @Test
    void aLimitSetAtRuntimeReachesClientsThatHadNoneAndLoweringItCancelsNothing() throws Exception {
        Runnel a = started(limitedWorker(10, 0));
        started(limitedWorker(10, 0));
        a.queues().setGlobalLimit("default", 2);
        insertJobs(40, 15);
        awaitDone(40);
        assertThat(highest.get()).isBetween(1, 2);
        assertThatThrownBy(() -> a.queues().setGlobalLimit("nope", 2)).isInstanceOf(NotFoundException.class)
                .hasMessageContaining("no queue named nope");
        assertThatThrownBy(() -> a.queues().setGlobalLimit("default", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("globalLimit of queue default must be at least 1, was 0");

        // Lifted: the clients pick it up and run more than two at once again.
        a.queues().clearGlobalLimit("default");
        assertThat(a.queues().get("default").orElseThrow().globalLimit()).isEmpty();
        highest.set(0);
        insertJobs(40, 100);
        awaitDone(80);
        assertThat(highest.get()).isGreaterThan(2);
    }

    @Test
    void aLimitCountsTheJobsAlreadyRunningAndCancelsNone() {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        insertJobs(6, 0);
        // Three claimed without a limit, then a limit of two: they are counted, so nothing more starts.
        List<JobRow> unlimited = claimQueue("default", 3);
        assertThat(driver.queueSetGlobalLimit(new QueueGlobalLimitParams("default", OptionalInt.of(2), clock.instant()))).isTrue();
        assertThat(claimLimited("b", 5)).isEmpty();
        // A claim that has not heard of the limit takes nothing either.
        assertThat(claimQueue("default", 5)).isEmpty();
        driver.jobCompleteMany(JobCompleteManyParams.of(unlimited.subList(0, 2), clock.instant()));
        assertThat(claimLimited("b", 5)).hasSize(1);
        assertThat(driver.jobList(JobQuery.inStates(JobState.RUNNING))).hasSize(2);
    }

    @Test
    void aDeadClientsSlotsComeBackThroughTheRescuer() {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        driver.queueSetGlobalLimit(new QueueGlobalLimitParams("default", OptionalInt.of(2), clock.instant()));
        insertJobs(4, 0);
        assertThat(claimLimited("ghost", 10)).hasSize(2);
        assertThat(claimLimited("alive", 10)).isEmpty();
        // The ghost never registered: the rescuer's threshold sweep takes its jobs.
        driver.leaderAttemptElect(new LeaderElectParams("leader", clock.instant(), clock.instant().plus(Duration.ofDays(1))));
        clock.advance(Duration.ofHours(2));
        assertThat(driver.jobRescueMany(new JobRescueParams(new Lease("leader", clock.instant()), List.of(),
                clock.instant().minus(Duration.ofHours(1)), Duration.ofHours(1), 3, 100))).hasSize(2);
        assertThat(claimLimited("alive", 10)).hasSize(2);
    }

    @Test
    void aKilledClientsSlotsComeBackThroughTheRescuerAndTheOthersWorkOn() throws Exception {
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(2);
        dev.runnel.testkit.KillableDriver cut = new dev.runnel.testkit.KillableDriver(driver);
        // The first client takes both slots and never lets go: then it dies.
        started(client().driver(cut).clientId("doomed").queue("default", 5).globalLimit("default", 2)
                .worker(TestArgs.class, job -> {
                    holding.countDown();
                    Thread.sleep(600_000);
                }));
        insertJobs(4, 0);
        assertThat(holding.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        List<Integer> claimed = new CopyOnWriteArrayList<>();
        Runnel survivor = started(limitedWorker(5, 2).clientId("survivor").runtimeListener(new RuntimeListener() {
            @Override
            public void claimed(String queue, int requested, int got, Duration took) {
                claimed.add(got);
            }
        }));
        Await.until("two claims by the survivor", () -> claimed.size() >= 2);
        assertThat(claimed).as("jobs the survivor claimed while the dead client's jobs hold the limit")
                .containsOnly(0);
        assertThat(done.get()).as("nothing runs while the dead client's jobs hold the limit").isZero();
        cut.kill();
        // Its heartbeat and lease run out by the cluster's clock; the survivor leads, rescues its two
        // jobs, and, the limit free again, works all four. The clock runs at twice real time, no
        // faster: the survivor renews its own heartbeat every 100 ms and its lease every third of a
        // second, and a faster clock would let those run out between renewals too (fencing out the
        // very rescue the test waits for).
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (done.get() < 4 && System.nanoTime() < deadline) {
            clock.advance(Duration.ofMillis(200));
            Thread.sleep(100);
        }
        assertThat(done.get()).isEqualTo(4);
        assertThat(highest.get()).isBetween(1, 2);
        assertThat(survivor.isLeader()).isTrue();
        cut.revive();
    }

    @Test
    void aPausedLimitedQueueClaimsNothing() {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        driver.queueSetGlobalLimit(new QueueGlobalLimitParams("default", OptionalInt.of(5), clock.instant()));
        insertJobs(3, 0);
        inserter().queues().pause("default");
        assertThat(claimLimited("a", 5)).isEmpty();
        inserter().queues().resume("default");
        assertThat(claimLimited("a", 5)).hasSize(3);
    }

    @Test
    void aRateLimitHoldsOverEveryWindowAcrossThreeClients() throws Exception {
        List<AtomicInteger> claims = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            AtomicInteger made = new AtomicInteger();
            claims.add(made);
            started(limitedWorker(10, 0).rateLimit("default", 5, Duration.ofSeconds(1))
                    .runtimeListener(new RuntimeListener() {
                        @Override
                        public void claimed(String queue, int requested, int claimed, Duration took) {
                            made.incrementAndGet();
                        }
                    }));
        }
        insertJobs(200, 0);
        // Time moves only as the test moves it: 5 s in steps of 100 ms, each long enough for the
        // clients to claim what the rate allows.
        for (int step = 0; step < 50; step++) {
            Thread.sleep(40);
            clock.advance(Duration.ofMillis(100));
        }
        // Every client's claims at the last time, begun after it was set: a start too many is in by then.
        int[] before = claims.stream().mapToInt(AtomicInteger::get).toArray();
        Await.until("two claims by each client at the last time",
                () -> IntStream.range(0, 3).allMatch(i -> claims.get(i).get() >= before[i] + 2));
        List<Instant> starts = driver.jobList(JobQuery.all().limit(1_000)).stream()
                .flatMap(j -> j.attemptedAt().stream()).sorted().toList();
        // About five a second over five seconds and more: the rate, not the slots, sets the pace.
        assertThat(starts.size()).isBetween(20, 30);
        for (int i = 0; i + 5 < starts.size(); i++) {
            assertThat(Duration.between(starts.get(i), starts.get(i + 5))).as("6 starts within a second")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        }
    }

    @Test
    void aRateLimitSetAtRuntimeCountsInTheClaimAndStartsAgainAfterThePeriod() {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        insertJobs(20, 0);
        inserter().queues().setRateLimit("default", 3, Duration.ofSeconds(10));
        assertThat(inserter().queues().get("default").orElseThrow().rateLimit())
                .contains(new dev.runnel.RateLimit(3, Duration.ofSeconds(10)));
        assertThat(claimQueue("default", 5)).isEmpty(); // the plain claim takes nothing from a limited queue
        assertThat(claimLimited("a", 2)).hasSize(2);
        clock.advance(Duration.ofSeconds(4));
        assertThat(claimLimited("b", 5)).hasSize(1);
        clock.advance(Duration.ofSeconds(5));
        assertThat(claimLimited("b", 5)).isEmpty();
        clock.advance(Duration.ofSeconds(1)); // the first two started 10 s ago
        assertThat(claimLimited("b", 5)).hasSize(2);
        inserter().queues().clearRateLimit("default");
        assertThat(claimLimited("b", 5)).hasSize(5);
        assertThatThrownBy(() -> inserter().queues().setRateLimit("default", 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rate limit jobs must be between 1");
        assertThatThrownBy(() -> inserter().queues().setRateLimit("default", 5, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rate limit period must be at least 1ms");
        assertThatThrownBy(() -> inserter().queues().setRateLimit("nope", 5, Duration.ofSeconds(1)))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void aPerKeyLimitHoldsForEachOfAHundredKeysAcrossThreeClients() throws Exception {
        java.util.Map<String, AtomicInteger> runningByKey = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicInteger worstKey = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            started(client().queue("default", 20).keyLimit("default", KeyLimit.byArgs("name", 2))
                    .worker(TestArgs.class, job -> {
                        AtomicInteger mine = runningByKey.computeIfAbsent(job.args().name(), k -> new AtomicInteger());
                        worstKey.accumulateAndGet(mine.incrementAndGet(), Math::max);
                        try {
                            Thread.sleep(job.args().value());
                        } finally {
                            mine.decrementAndGet();
                            done.incrementAndGet();
                        }
                    }));
        }
        inserter().insertMany(IntStream.range(0, 400)
                .mapToObj(i -> InsertRequest.of(new TestArgs("tenant-" + (i % 100), 20))).toList());
        awaitDone(400);
        assertThat(worstKey.get()).isBetween(1, 2);
        assertThat(runningByKey).hasSize(100);
    }

    @Test
    void smallTenantsFinishWhileABigTenantsBacklogIsStillWorked() throws Exception {
        List<String> finished = new CopyOnWriteArrayList<>();
        Runnel worker = started(client().queue("default", 4).keyLimit("default", KeyLimit.byArgs("name", 4))
                .worker(TestArgs.class, job -> {
                    Thread.sleep(job.args().value());
                    finished.add(job.args().name());
                    done.incrementAndGet();
                }));
        worker.queues().pause("default");
        // The big tenant's backlog is older than every small tenant's jobs.
        insertJobsOf("big", 200);
        clock.advance(Duration.ofSeconds(1));
        for (int t = 0; t < 10; t++) {
            insertJobsOf("small-" + t, 3);
        }
        worker.queues().resume("default");
        awaitDone(230);
        int lastSmall = 0;
        for (int i = 0; i < finished.size(); i++) {
            if (finished.get(i).startsWith("small")) {
                lastSmall = i;
            }
        }
        long bigBefore = finished.subList(0, lastSmall).stream().filter("big"::equals).count();
        // Taking turns, the small tenants' 30 jobs are done by about the 60th job, not after the 200 big ones.
        assertThat(bigBefore).isLessThan(60);
    }

    private void insertJobsOf(String tenant, int count) {
        inserter().insertMany(IntStream.range(0, count).mapToObj(i -> InsertRequest.of(new TestArgs(tenant, 5))).toList());
    }

    @Test
    void keysComeFromArgsOrMetadataAndTheClaimTakesThemInTurn() {
        driver.queueRegister(new QueueRegisterParams(List.of("default", "meta"), clock.instant()));
        insertJobsOf("old", 1);
        assertThat(driver.queueSetKeyLimit(new QueueKeyLimitParams("default", java.util.Optional.of(KeyLimit.byArgs("name", 2)),
                clock.instant()))).isTrue();
        for (String key : List.of("a", "a", "a", "a", "b", "b", "c")) {
            clock.advance(Duration.ofMillis(1));
            insertJobsOf(key, 1);
        }
        // Inserted before the limit, "old" got its key when the limit was set.
        assertThat(claimLimited("x", 5)).extracting(j -> j.args().replaceAll(".*\"name\":\"(\\w+)\".*", "$1"))
                .containsExactlyInAnyOrder("old", "a", "b", "c", "a");
        // Each key holds two now but b (one left) and c (none): nothing for a until one finishes.
        assertThat(claimLimited("x", 5)).extracting(j -> j.args().replaceAll(".*\"name\":\"(\\w+)\".*", "$1"))
                .containsExactly("b");
        assertThat(claimLimited("x", 5)).isEmpty();

        inserter().queues().setKeyLimit("meta", KeyLimit.byMetadata("tenant", 1));
        for (String tenant : List.of("t1", "t1", "t2")) {
            inserter().insert(new TestArgs("m", 0), dev.runnel.InsertOptions.builder().queue("meta")
                    .metadata(java.util.Map.of("tenant", tenant)).build());
        }
        inserter().insert(new TestArgs("untenanted", 0), dev.runnel.InsertOptions.builder().queue("meta").build());
        assertThat(driver.jobClaim(new JobClaimParams("meta", 10, clock.instant(), "x", false, true))).hasSize(3);
        assertThat(inserter().queues().get("meta").orElseThrow().keyLimit())
                .contains(KeyLimit.byMetadata("tenant", 1));
        assertThatThrownBy(() -> KeyLimit.byArgs("a.b", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plain field name");
        assertThatThrownBy(() -> KeyLimit.byArgs("tenant", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key limit must be at least 1");
    }

    @Test
    void aKeyWithJobsRunningWaitsItsTurnBehindKeysThatRunFewer() {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        inserter().queues().setKeyLimit("default", KeyLimit.byArgs("name", 4));
        insertJobsOf("big", 5);
        clock.advance(Duration.ofSeconds(1));
        insertJobsOf("small", 2);
        // One free slot at a time, as when jobs finish one by one: the big key's older jobs come
        // first only while it runs no more jobs than the small key.
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            claimLimited("x", 1).forEach(j -> taken.add(j.args().replaceAll(".*\"name\":\"(\\w+)\".*", "$1")));
        }
        assertThat(taken).containsExactly("big", "small", "big", "small", "big");
    }

    @Test
    void aKeyOfWeightThreeTakesThreeJobsATurn() {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        inserter().queues().setKeyLimit("default", KeyLimit.byArgs("name", 10).withWeights(java.util.Map.of("a", 3)));
        assertThat(inserter().queues().get("default").orElseThrow().keyLimit().orElseThrow().weights())
                .containsExactly(java.util.Map.entry("a", 3));
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofMillis(1));
            insertJobsOf("a", 1);
            insertJobsOf("b", 1);
        }
        List<String> keys = claimLimited("x", 8).stream()
                .map(j -> j.args().replaceAll(".*\"name\":\"(\\w+)\".*", "$1")).toList();
        assertThat(keys).filteredOn("a"::equals).hasSize(6);
        assertThat(keys).filteredOn("b"::equals).hasSize(2);
        assertThatThrownBy(() -> KeyLimit.byArgs("name", 1).withWeights(java.util.Map.of("a", 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weights must be 1 to 1000");
    }

    @Test
    void aRatePerKeyHoldsForEachKeyOverSeveralPeriods() {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        inserter().queues().setKeyLimit("default", KeyLimit.byArgs("name", 10).withRate(2, Duration.ofSeconds(10)));
        assertThat(inserter().queues().get("default").orElseThrow().keyLimit().orElseThrow().rate())
                .contains(new dev.runnel.RateLimit(2, Duration.ofSeconds(10)));
        for (int i = 0; i < 7; i++) {
            insertJobsOf("a", 1);
            insertJobsOf("b", 1);
        }
        for (int period = 0; period < 3; period++) {
            List<String> keys = claimLimited("x", 10).stream()
                    .map(j -> j.args().replaceAll(".*\"name\":\"(\\w+)\".*", "$1")).toList();
            assertThat(keys).as("period " + period).containsExactlyInAnyOrder("a", "a", "b", "b");
            clock.advance(Duration.ofSeconds(5));
            assertThat(claimLimited("x", 10)).as("half-way through period " + period).isEmpty();
            clock.advance(Duration.ofSeconds(5).plusNanos(1_000));
        }
        assertThat(claimLimited("x", 10)).hasSize(2); // the last job of each key
    }

    @Test
    void badLimitsAreRefusedWhenConfigured() {
        assertThatThrownBy(() -> client().globalLimit("default", 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("globalLimit needs queue default configured first");
        assertThatThrownBy(() -> client().queue("default", 5, Runnel.Delivery.AT_MOST_ONCE).globalLimit("default", 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least once");
        assertThatThrownBy(() -> client().rateLimit("default", 3, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rateLimit needs queue default");
        assertThatThrownBy(() -> client().queue("default", 5).keyLimit("default", KeyLimit.byArgs("tenant", 2))
                .worker(TestArgs.class, job -> {}).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keyLimit field 'tenant' is not a field of any registered worker's args ([TestArgs])");
        assertThatThrownBy(() -> client().queue("default", 5).globalLimit("default", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("globalLimit of queue default must be at least 1, was 0");
    }
}
