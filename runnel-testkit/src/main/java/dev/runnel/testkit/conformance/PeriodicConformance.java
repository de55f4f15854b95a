package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.InsertOptions;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.LeaderRow;
import dev.runnel.NotFoundException;
import dev.runnel.Periodic;
import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicJob.CatchUp;
import dev.runnel.PeriodicRow;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.ForwardingDriver;
import dev.runnel.testkit.KillableDriver;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Periodic jobs: each tick enqueued exactly once across clients and leader changes, missed ticks
 * caught up by policy, a run on start once per deployment, and changes at runtime from any client.
 * Time is the test's clock: ticks come due when the test moves it.
 */
public abstract class PeriodicConformance extends DriverConformance {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration EVERY = Duration.ofSeconds(10);

    private static PeriodicJob every10(String name) {
        return PeriodicJob.every(name, EVERY, new TestArgs(name, 0));
    }

    /** The jobs enqueued for periodic job {@code name}, oldest first. */
    private List<JobRow> jobsOf(String name) {
        List<JobRow> jobs = new ArrayList<>();
        for (JobRow job : driver.jobList(JobQuery.all().limit(10_000))) {
            if (name.equals(meta(job).path("periodic").asText())) {
                jobs.add(job);
            }
        }
        return jobs;
    }

    /** The ticks of periodic job {@code name} that jobs were enqueued for, repeats kept, in order. */
    private List<Instant> ticks(String name) {
        return jobsOf(name).stream().filter(j -> meta(j).has("tick"))
                .map(j -> Instant.parse(meta(j).get("tick").asText())).sorted().toList();
    }

    /** How many runs on start periodic job {@code name} had. */
    private long starts(String name) {
        return jobsOf(name).stream().filter(j -> meta(j).has("start")).count();
    }

    private static JsonNode meta(JobRow job) {
        try {
            return JSON.readTree(job.metadata());
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client's driver that counts the enqueuer's rounds: each starts by listing the periodic jobs. */
    private static final class RoundCounter extends ForwardingDriver {
        private final AtomicInteger started = new AtomicInteger();

        RoundCounter(Driver delegate) {
            super(delegate);
        }

        @Override
        public List<PeriodicRow> periodicList() {
            started.incrementAndGet();
            return super.periodicList();
        }

        /**
         * Waits until a whole round has run that started after this call: the one after it has
         * begun. Anything that round would enqueue wrongly is in the table by then.
         */
        void awaitWholeRound() {
            int now = started.get();
            Await.until("a whole round of the periodic enqueuer", () -> started.get() >= now + 2);
        }
    }

    private void awaitTick(String name, Instant tick) {
        Await.until(name + "'s tick " + tick, () -> ticks(name).contains(tick));
    }

    private PeriodicRow row(String name) {
        return driver.periodicList().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    @Test
    void aTickIsEnqueuedOnceOnlyFromTheTickReadAndOnlyUnderTheLease() throws Exception {
        PeriodicJob job = every10("report").options(InsertOptions.builder().queue("reports").priority(3)
                .maxAttempts(4).tags("nightly").metadata(Map.of("team", "ops")).build());
        assertThat(inserter().periodic().upsert(job)).isTrue();
        PeriodicRow stored = row("report");
        assertThat(stored.firedThrough()).isEqualTo(T0);
        driver.leaderAttemptElect(new LeaderElectParams("leader", T0, T0.plus(Duration.ofDays(1))));
        clock.set(at(10));
        Lease lease = new Lease("leader", clock.instant());
        String hash = stored.hash();
        assertThat(driver.periodicEnqueue(new PeriodicEnqueueParams(new Lease("impostor", clock.instant()), "report",
                hash, T0, at(10), true))).isFalse();
        assertThat(driver.periodicEnqueue(new PeriodicEnqueueParams(lease, "report", "v1:another definition", T0,
                at(10), true))).isFalse();
        assertThat(driver.periodicEnqueue(new PeriodicEnqueueParams(lease, "report", hash, at(-10), at(10), true)))
                .isFalse();
        assertThat(jobsOf("report")).isEmpty();

        // Eight attempts at the same tick at once, as from clients that all believe they lead.
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> attempts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            attempts.add(pool.submit(() -> {
                go.await();
                return driver.periodicEnqueue(new PeriodicEnqueueParams(lease, "report", hash, T0, at(10), true));
            }));
        }
        go.countDown();
        int won = 0;
        for (Future<Boolean> attempt : attempts) {
            won += attempt.get() ? 1 : 0;
        }
        pool.shutdown();
        assertThat(won).isEqualTo(1);
        JobRow enqueued = jobsOf("report").getFirst();
        assertThat(jobsOf("report")).hasSize(1);
        assertThat(enqueued.kind()).isEqualTo("test_job");
        assertThat(JSON.readTree(enqueued.args()).get("name").asText()).isEqualTo("report");
        assertThat(enqueued.state()).isEqualTo(JobState.AVAILABLE);
        assertThat(enqueued.queue()).isEqualTo("reports");
        assertThat(enqueued.priority()).isEqualTo(3);
        assertThat(enqueued.maxAttempts()).isEqualTo(4);
        assertThat(enqueued.tags()).containsExactly("nightly");
        assertThat(enqueued.scheduledAt()).isEqualTo(at(10));
        assertThat(JSON.readTree(enqueued.metadata())).isEqualTo(JSON.readTree(
                "{\"team\":\"ops\",\"periodic\":\"report\",\"tick\":\"2030-01-01T00:00:10Z\"}"));
        assertThat(row("report").firedThrough()).isEqualTo(at(10));
        assertThat(row("report").lastTick()).contains(at(10));

        // Dropping missed ticks moves on without a job; a paused job does not move on at all.
        assertThat(driver.periodicEnqueue(new PeriodicEnqueueParams(lease, "report", hash, at(10), at(40), false)))
                .isTrue();
        assertThat(row("report").firedThrough()).isEqualTo(at(40));
        assertThat(row("report").lastTick()).contains(at(10));
        inserter().periodic().pause("report");
        assertThat(driver.periodicEnqueue(new PeriodicEnqueueParams(lease, "report", hash, at(40), at(50), true)))
                .isFalse();
        assertThat(jobsOf("report")).hasSize(1);
    }

    @Test
    void threeClientsEnqueueEachTickExactlyOnceAcrossLeaderChanges() throws Exception {
        // Every client declares the job, as every process of a deployment would. Each clock step of
        // 10 s also outlasts the 1 s test lease, so the lease may change hands at any step besides
        // the changes forced below: whoever leads, each tick must be enqueued once.
        PeriodicJob job = every10("tick");
        Map<String, KillableDriver> cuts = new LinkedHashMap<>();
        Map<String, RoundCounter> rounds = new LinkedHashMap<>();
        Map<String, Runnel> clients = new LinkedHashMap<>();
        for (String id : List.of("a", "b", "c")) {
            RoundCounter counter = new RoundCounter(driver);
            rounds.put(id, counter);
            KillableDriver cut = new KillableDriver(counter);
            cuts.put(id, cut);
            clients.put(id, started(client().driver(cut).clientId(id).periodic(job)));
        }
        List<Instant> expected = new ArrayList<>();
        Await.until("a leader", () -> leader() != null);
        for (int k = 1; k <= 3; k++) {
            step(k, expected);
        }
        // The leader is cut off (frozen, or its network lost): another client takes over.
        String first = leader();
        cuts.get(first).kill();
        for (int k = 4; k <= 6; k++) {
            step(k, expected);
        }
        Await.until("a leader other than " + first, () -> leader() != null && !first.equals(leader()));
        // It comes back still believing it leads, until its own clock says its lease ran out: the
        // rounds it runs meanwhile find the lease taken and change nothing.
        cuts.get(first).revive();
        for (int k = 7; k <= 9; k++) {
            step(k, expected);
        }
        // The leader now stops cleanly and gives the lease up.
        String second = leader();
        clients.get(second).stop(Duration.ofSeconds(5));
        for (int k = 10; k <= 12; k++) {
            step(k, expected);
        }
        String last = leader();
        assertThat(last).isNotEqualTo(second);
        rounds.get(last).awaitWholeRound();
        assertThat(ticks("tick")).containsExactlyElementsOf(expected);
        assertThat(starts("tick")).isZero();
    }

    /** Moves the clock to tick {@code k} and waits for its job. */
    private void step(int k, List<Instant> expected) {
        Instant tick = at(10L * k);
        clock.set(tick);
        expected.add(tick);
        awaitTick("tick", tick);
    }

    /** The lease holder by the database, if its lease has not ended by the test's clock. */
    private String leader() {
        return driver.leaderGet().filter(l -> l.expiresAt().isAfter(clock.instant())).map(LeaderRow::leaderId)
                .orElse(null);
    }

    @Test
    void underSkipTicksMissedWhileEveryClientWasDownAreDroppedAndLateOnesWithinTheGraceStillRun() {
        Runnel first = started(client().periodic(every10("report")));
        clock.set(at(10));
        awaitTick("report", at(10));
        first.stop(Duration.ofSeconds(5));
        // Down from 0:10 to 1:40. At 1:40 the ticks of 0:20 and 0:30 are more than a minute late:
        // missed, dropped; those from 0:40 (a minute late) on are late but on time enough.
        clock.set(at(100));
        started(client().periodic(every10("report")));
        Await.until("the ticks up to 1:40 dealt with", () -> row("report").firedThrough().equals(at(100)));
        assertThat(ticks("report")).containsExactly(at(10), at(40), at(50), at(60), at(70), at(80), at(90), at(100));
    }

    @Test
    void underLatestTheLatestMissedTickRunsOnceAfterDowntimeThenOnAsNormal() {
        PeriodicJob hourly = PeriodicJob.cron("hourly", "0 * * * *", new TestArgs("hourly", 0)).catchUp(CatchUp.LATEST);
        Runnel first = started(client().periodic(hourly));
        clock.set(T0.plus(Duration.ofHours(1)));
        awaitTick("hourly", T0.plus(Duration.ofHours(1)));
        first.stop(Duration.ofSeconds(5));
        // Every client down from 1:00 to 5:30: the ticks of 2:00, 3:00, 4:00 and 5:00 are missed.
        clock.set(T0.plus(Duration.ofMinutes(330)));
        started(client().periodic(hourly));
        awaitTick("hourly", T0.plus(Duration.ofHours(5)));
        clock.set(T0.plus(Duration.ofHours(6)));
        awaitTick("hourly", T0.plus(Duration.ofHours(6)));
        assertThat(ticks("hourly")).containsExactly(T0.plus(Duration.ofHours(1)), T0.plus(Duration.ofHours(5)),
                T0.plus(Duration.ofHours(6)));
    }

    @Test
    void runOnStartFiresOncePerDeploymentOfADefinitionNotOncePerProcessStart() throws Exception {
        PeriodicJob v1 = PeriodicJob.cron("warm-cache", "0 3 * * *", new TestArgs("v1", 1)).runOnStart(true);
        startThreeAtOnce(v1);
        assertThat(starts("warm-cache")).isEqualTo(1);
        // The same definition started again, as after a restart or a scale-out: nothing.
        startThreeAtOnce(v1);
        assertThat(starts("warm-cache")).isEqualTo(1);
        // A new deployment with a changed definition: once more, with it.
        PeriodicJob v2 = PeriodicJob.cron("warm-cache", "0 3 * * *", new TestArgs("v2", 2)).runOnStart(true);
        startThreeAtOnce(v2);
        startThreeAtOnce(v2);
        assertThat(starts("warm-cache")).isEqualTo(2);
        assertThat(jobsOf("warm-cache").getLast().args()).contains("v2");
        assertThat(ticks("warm-cache")).isEmpty();
        // A runtime change is a deployment too; a paused job does not run on start.
        Periodic ops = inserter().periodic();
        ops.pause("warm-cache");
        ops.upsert(PeriodicJob.cron("warm-cache", "0 3 * * *", new TestArgs("v3", 3)).runOnStart(true));
        assertThat(starts("warm-cache")).isEqualTo(2);
        ops.resume("warm-cache");
        ops.upsert(PeriodicJob.cron("warm-cache", "0 3 * * *", new TestArgs("v4", 4)).runOnStart(true));
        assertThat(starts("warm-cache")).isEqualTo(3);
    }

    /** Starts three clients that declare {@code job} at the same moment, and stops them. */
    private void startThreeAtOnce(PeriodicJob job) throws Exception {
        List<Runnel> three = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            three.add(client().periodic(job).build());
        }
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<?>> starts = new ArrayList<>();
            for (Runnel r : three) {
                starts.add(pool.submit(() -> {
                    go.await();
                    r.start();
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : starts) {
                f.get();
            }
        } finally {
            pool.shutdown();
            three.forEach(r -> r.stop(Duration.ofSeconds(5)));
        }
    }

    @Test
    void periodicJobsAreAddedPausedResumedEditedAndRemovedAtRuntimeFromAClientThatDoesNotLead() throws Exception {
        // A canary the leader always enqueues: once its tick is in, the leader has been at that time.
        RoundCounter rounds = new RoundCounter(driver);
        started(client().driver(rounds).clientId("leader").periodic(every10("zz-canary")));
        Periodic ops = inserter().periodic(); // never started: it only inserts
        clock.set(at(5));
        assertThat(ops.upsert(every10("report"))).isTrue();
        assertThat(ops.upsert(every10("report"))).isFalse(); // stored already, exactly so
        PeriodicRow added = ops.get("report").orElseThrow();
        assertThat(added.firedThrough()).isEqualTo(at(5));
        assertThat(added.nextRun(clock.instant())).contains(at(10));
        assertThat(added.declared()).isFalse();
        assertThat(ops.list()).extracting(PeriodicRow::name).containsExactly("report", "zz-canary");
        // Each change below waits for the tick before it: a pause, or a new schedule, drops a tick
        // due but not yet enqueued (as when the lease changed hands between the two jobs of a round).
        round(10, true);
        ops.pause("report");
        assertThat(ops.get("report").orElseThrow().pausedAt()).contains(at(10));
        assertThat(ops.get("report").orElseThrow().nextRun(clock.instant())).isEmpty();
        round(20, false);
        clock.set(at(25));
        ops.resume("report");
        round(30, true);
        ops.upsert(PeriodicJob.every("report", EVERY, new TestArgs("edited", 7)));
        round(40, true);
        assertThat(jobsOf("report").getLast().args()).contains("edited");
        ops.remove("report");
        assertThat(ops.get("report")).isEmpty();
        assertThat(ops.list()).extracting(PeriodicRow::name).containsExactly("zz-canary");
        round(50, false);
        assertThatThrownBy(() -> ops.remove("report")).isInstanceOf(NotFoundException.class)
                .hasMessageContaining("no periodic job named report");
        assertThatThrownBy(() -> ops.pause("ghost")).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> ops.resume("ghost")).isInstanceOf(NotFoundException.class);
        // Added again: its ticks count from now, not from its removal.
        clock.set(at(55));
        assertThat(ops.upsert(every10("report"))).isTrue();
        round(60, true);
        // A new schedule counts its ticks from the change. Every 7 s, aligned to the epoch, ticks at
        // 1:01 and 1:08 here: 1:01 comes before the change and is not enqueued.
        clock.set(at(65));
        ops.upsert(PeriodicJob.every("report", Duration.ofSeconds(7), new TestArgs("report", 0)));
        round(70, false);
        awaitTick("report", at(68));
        rounds.awaitWholeRound();
        assertThat(ticks("report")).containsExactly(at(10), at(30), at(40), at(60), at(68));
    }

    /**
     * Moves the clock to {@code seconds} and waits until the leader has enqueued the canary's tick
     * then, and "report"'s when it {@code fires}. A job that does not fire (paused, removed) never
     * will: the canary shows that the leader has been at that time.
     */
    private void round(long seconds, boolean fires) {
        clock.set(at(seconds));
        awaitTick("zz-canary", at(seconds));
        if (fires) {
            awaitTick("report", at(seconds));
        }
    }

    @Test
    void anOperatorsPauseEditAndRemovalOfADeclaredJobStandUntilItsCodeChanges() {
        PeriodicJob v1 = every10("report");
        Runnel runnel = started(client().periodic(v1));
        Periodic ops = runnel.periodic();
        assertThat(ops.get("report").orElseThrow().declared()).isTrue();
        ops.pause("report");
        runnel.stop(Duration.ofSeconds(5));
        runnel = started(client().periodic(v1));
        assertThat(ops.get("report").orElseThrow().paused()).isTrue();

        ops.resume("report");
        ops.upsert(PeriodicJob.every("report", EVERY, new TestArgs("operator", 9)));
        runnel.stop(Duration.ofSeconds(5));
        runnel = started(client().periodic(v1));
        assertThat(ops.get("report").orElseThrow().args()).contains("operator");

        ops.remove("report");
        runnel.stop(Duration.ofSeconds(5));
        runnel = started(client().periodic(v1));
        assertThat(ops.get("report")).isEmpty();

        PeriodicJob v2 = PeriodicJob.every("report", EVERY, new TestArgs("v2", 2));
        runnel.stop(Duration.ofSeconds(5));
        started(client().periodic(v2));
        PeriodicRow back = ops.get("report").orElseThrow();
        assertThat(back.args()).contains("v2");
        assertThat(back.paused()).isFalse();
        assertThat(back.declared()).isTrue();
    }

    /**
     * Stores {@code schedule} as periodic job {@code name}'s schedule behind the driver's back, as a
     * hand edit would. By default an SQL update on {@link #newConnection}; a driver without SQL
     * overrides it.
     */
    protected void storeScheduleByHand(String name, String schedule) throws Exception {
        try (Connection c = newConnection(dir);
                PreparedStatement st = c.prepareStatement("UPDATE runnel_periodic SET schedule = ? WHERE name = ?")) {
            st.setString(1, schedule);
            st.setString(2, name);
            st.executeUpdate();
        }
    }

    @Test
    void aStoredScheduleThatNoLongerParsesHoldsUpNoOtherJob() throws Exception {
        Periodic ops = inserter().periodic();
        ops.upsert(every10("broken"));
        // As a hand edit, or a newer Runnel's syntax, might leave it; "broken" comes first by name.
        storeScheduleByHand("broken", "every now and then");
        started(client().periodic(every10("fine")));
        clock.set(at(10));
        awaitTick("fine", at(10));
        clock.set(at(20));
        awaitTick("fine", at(20));
        assertThat(jobsOf("broken")).isEmpty();
        PeriodicRow broken = ops.get("broken").orElseThrow();
        assertThatThrownBy(() -> broken.nextRun(clock.instant())).hasMessageContaining("'every now and then'");
    }

    @Test
    void aStoredDefinitionReadsBackAsGivenWithItsNextRunInItsZone() {
        PeriodicJob job = PeriodicJob.cron("berlin", "0 30 9 * * MON-FRI", "report", "{\"b\":1,\"a\":[1,{\"y\":2,\"x\":1}]}")
                .zone(ZoneId.of("Europe/Berlin")).catchUp(CatchUp.LATEST)
                .options(InsertOptions.builder().queue("reports").priority(2).maxAttempts(3).tags("a", "b")
                        .metadata(Map.of("k", "v")).build());
        Periodic ops = inserter().periodic();
        assertThat(ops.upsert(job)).isTrue();
        PeriodicRow row = ops.get("berlin").orElseThrow();
        assertThat(row.definition()).isEqualTo(job);
        assertThat(row.schedule()).isEqualTo("0 30 9 * * MON-FRI");
        assertThat(row.zone()).isEqualTo("Europe/Berlin");
        assertThat(row.catchUp()).isEqualTo(CatchUp.LATEST);
        assertThat(row.tags()).containsExactly("a", "b");
        assertThat(row.createdAt()).isEqualTo(T0);
        assertThat(row.lastTick()).isEmpty();
        // Its args as the database keeps them (jsonb reorders keys) are the same definition.
        assertThat(ops.upsert(row.definition())).isFalse();
        // 1 January 2030 is a Tuesday; 9:30 in Berlin is 8:30 UTC in winter.
        assertThat(row.nextRun(T0)).contains(Instant.parse("2030-01-01T08:30:00Z"));
        assertThat(ops.get("nobody")).isEmpty();
    }
}
