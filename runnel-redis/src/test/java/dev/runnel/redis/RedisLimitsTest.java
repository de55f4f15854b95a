package dev.runnel.redis;

import dev.runnel.testkit.LocalRedis;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.KeyLimit;
import dev.runnel.Migrator;
import dev.runnel.RateLimit;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueKeyStragglersParams;
import dev.runnel.driver.QueueRateLimitParams;
import dev.runnel.driver.QueueRegisterParams;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the Redis driver keeps for queue limits besides the jobs, which the conformance suite
 * cannot see: each key's available and running jobs, the keys given to a backlog in batches, and
 * a namespace with limits and periodic jobs dropped whole.
 */
class RedisLimitsTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final RedisCommands<String, String> redis = RawRedis.commands();

    private static JobInsertParams job(String args) {
        return new JobInsertParams("k", args, "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}");
    }

    private static List<JobRow> claimLimited(RedisDriver driver, int max, Instant now) {
        return driver.jobClaim(new JobClaimParams("q", max, now, "client-1", false, true));
    }

    private static String keyOf(JobRow job) {
        return job.args().replaceAll(".*\"t\":\"?([^\"}]*)\"?}.*", "$1");
    }

    private static QueueKeyLimitParams keyLimit(KeyLimit limit) {
        return new QueueKeyLimitParams("q", Optional.ofNullable(limit), T0);
    }

    @Test
    void aPerKeyLimitSetOverABacklogOfSeveralBatchesGivesEveryWaitingJobItsKey() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            driver.queueRegister(new QueueRegisterParams(List.of("q"), T0));
            List<JobInsertParams> jobs = new ArrayList<>();
            for (int i = 0; i < 2 * RedisLimits.KEY_BATCH + 500; i++) {
                jobs.add(job("{\"t\":\"k" + i % 5 + "\"}"));
            }
            jobs.add(job("{\"t\":7}"));
            jobs.add(job("{}"));
            driver.jobInsertMany(jobs);
            assertThat(driver.queueSetKeyLimit(keyLimit(KeyLimit.byArgs("t", 1)))).isTrue();
            // One of each key, the last ones in the backlog too: a number's key is its digits, a
            // job without the field has the key "".
            assertThat(claimLimited(driver, 100, T0)).extracting(RedisLimitsTest::keyOf)
                    .containsExactlyInAnyOrder("k0", "k1", "k2", "k3", "k4", "7", "{}");
            String p = driver.keyPrefix();
            // The keys with jobs still waiting; "" and "7" have none left.
            assertThat(redis.zrange(p + "lk:q", 0, -1)).containsExactly("k0", "k1", "k2", "k3", "k4");
            assertThat(redis.hgetall(p + "lkr:q")).containsOnlyKeys("", "7", "k0", "k1", "k2", "k3", "k4")
                    .allSatisfy((k, n) -> assertThat(n).isEqualTo("1"));
            assertThat(redis.zcard(p + "lka:1:q:k0")).isEqualTo(499);
            assertThat(redis.hget(p + "q:q", "key_cursor")).isNull();
        }
    }

    @Test
    void aKeysRunningCountFollowsEveryWayItsJobsStopRunning() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            String p = driver.keyPrefix();
            driver.queueRegister(new QueueRegisterParams(List.of("q"), T0));
            driver.queueSetKeyLimit(keyLimit(KeyLimit.byArgs("t", 1)));
            for (String key : List.of("a", "b", "c", "d")) {
                driver.jobInsertMany(List.of(job("{\"t\":\"" + key + "\"}"), job("{\"t\":\"" + key + "\"}")));
            }
            Map<String, JobRow> first = new java.util.TreeMap<>();
            claimLimited(driver, 10, T0).forEach(j -> first.put(keyOf(j), j));
            assertThat(first).containsOnlyKeys("a", "b", "c", "d");
            assertThat(claimLimited(driver, 10, T0)).isEmpty();

            // a completes; b fails and comes back through the scheduler; c snoozes; d's client is
            // never heard of again and the rescuer takes it.
            Instant now = T0.plusSeconds(1);
            driver.jobCompleteMany(JobCompleteManyParams.of(List.of(first.get("a")), now));
            driver.jobSetStateMany(List.of(
                    JobSetStateParams.of(first.get("b"), JobState.RETRYABLE, now, null, "{\"attempt\":1}", 0),
                    JobSetStateParams.of(first.get("c"), JobState.AVAILABLE, now, null, null, -1)));
            driver.leaderAttemptElect(new LeaderElectParams("leader", now, now.plus(Duration.ofDays(1))));
            Instant later = now.plus(Duration.ofHours(2));
            assertThat(driver.jobRescueMany(new JobRescueParams(new Lease("leader", later), List.of(),
                    later.minus(Duration.ofHours(1)), Duration.ofHours(1), 3, 100))).hasSize(1);
            assertThat(redis.hgetall(p + "lkr:q")).isEmpty();
            driver.jobScheduleDue(new JobScheduleParams(later, 100));
            // Each key runs one again, its second job first: b's, c's and d's first jobs are back, but
            // scheduled later (at their retry or snooze).
            List<JobRow> again = claimLimited(driver, 10, later);
            assertThat(again).extracting(RedisLimitsTest::keyOf).containsExactlyInAnyOrder("a", "b", "c", "d");
            assertThat(again).extracting(JobRow::id).doesNotContain(first.get("b").id(), first.get("c").id(),
                    first.get("d").id());
            assertThat(redis.hgetall(p + "lkr:q")).hasSize(4);

            // The limit lifted, the plain claim takes the rest and keeps the counts all the same.
            driver.queueSetKeyLimit(keyLimit(null));
            assertThat(driver.queueList().getFirst().keyLimit()).isEmpty();
            List<JobRow> rest = driver.jobClaim(new JobClaimParams("q", 10, later, "client-1"));
            assertThat(rest).extracting(JobRow::id).containsExactlyInAnyOrder(first.get("b").id(), first.get("c").id(),
                    first.get("d").id());
            List<JobRow> all = new ArrayList<>(again);
            all.addAll(rest);
            driver.jobCompleteMany(JobCompleteManyParams.of(all, later));
            assertThat(redis.hgetall(p + "lkr:q")).isEmpty();
            assertThat(redis.zcard(p + "lk:q")).isZero();
            assertThat(redis.keys(p + "lka:*")).isEmpty();
        }
    }

    @Test
    void aClientThatStoppedBeforeGivingTheBacklogItsKeysIsFinishedByTheStragglers() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            driver.queueRegister(new QueueRegisterParams(List.of("q"), T0));
            List<JobInsertParams> jobs = new ArrayList<>();
            for (int i = 0; i < RedisLimits.KEY_BATCH + 200; i++) {
                jobs.add(job("{\"t\":\"k" + i % 3 + "\"}"));
            }
            driver.jobInsertMany(jobs);
            // The limit stored, as by a client that stopped at once after: no job has its key.
            redis.fcall("runnel_queue_set_key_limit", ScriptOutputType.INTEGER, new String[] {driver.keyPrefix()},
                    "q", RedisEncoding.micros(T0), "args", "t", "1", "{}", "", "");
            assertThat(driver.queueList().getFirst().keyLimit()).contains(KeyLimit.byArgs("t", 1));
            assertThat(claimLimited(driver, 10, T0)).isEmpty();
            assertThat(driver.queueKeyStragglers(new QueueKeyStragglersParams(T0.plusSeconds(1)))).isZero();
            assertThat(driver.queueKeyStragglers(new QueueKeyStragglersParams(T0.minusSeconds(60))))
                    .isEqualTo(RedisLimits.KEY_BATCH + 200);
            assertThat(driver.queueKeyStragglers(new QueueKeyStragglersParams(T0.minusSeconds(60)))).isZero();
            assertThat(claimLimited(driver, 10, T0)).extracting(RedisLimitsTest::keyOf)
                    .containsExactlyInAnyOrder("k0", "k1", "k2");
        }
    }

    @Test
    void aRateKeepsOnlyItsLastStartsAndANamespaceWithLimitsAndPeriodicJobsIsDroppedWhole() {
        String prefix = "lim" + UUID.randomUUID().toString().substring(0, 8);
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().url(prefix))) {
            new Migrator(driver).up();
            String p = driver.keyPrefix();
            driver.queueRegister(new QueueRegisterParams(List.of("q"), T0));
            driver.queueSetGlobalLimit(new QueueGlobalLimitParams("q", OptionalInt.of(50), T0));
            driver.queueSetRateLimit(new QueueRateLimitParams("q", Optional.of(new RateLimit(3, Duration.ofSeconds(1))), T0));
            driver.queueSetKeyLimit(keyLimit(KeyLimit.byArgs("t", 10).withRate(2, Duration.ofSeconds(1))));
            List<JobInsertParams> jobs = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                jobs.add(job("{\"t\":\"k" + i % 2 + "\"}"));
            }
            driver.jobInsertMany(jobs);
            int claimed = 0;
            for (int s = 0; s < 5; s++) {
                claimed += claimLimited(driver, 10, T0.plusSeconds(s)).size();
            }
            // Three a second at most, two a second per key: three each second.
            assertThat(claimed).isEqualTo(15);
            assertThat(redis.zcard(p + "lrate:q")).isEqualTo(3);
            assertThat(redis.zcard(p + "lkrate:1:q:k0")).isEqualTo(2);
            driver.leaderAttemptElect(new LeaderElectParams("leader", T0, T0.plus(Duration.ofDays(1))));
            driver.periodicUpsert(new PeriodicUpsertParams("report", "k", "{}", "q", 1, 25, List.of(), "{}", "@every 10s",
                    "UTC", dev.runnel.PeriodicJob.CatchUp.SKIP, true, "h1", true, T0));
            assertThat(driver.periodicEnqueue(new PeriodicEnqueueParams(new Lease("leader", T0.plusSeconds(10)), "report",
                    "h1", T0, T0.plusSeconds(10), true))).isTrue();
            assertThat(redis.keys("*" + prefix + "*")).contains(p + "periodic:report", p + "periodics", p + "lrate:q",
                    p + "lk:q", p + "lkr:q");
            assertThat(new Migrator(driver).down(1)).containsExactly(1);
            assertThat(redis.keys("*" + prefix + "*")).isEmpty();
        }
    }
}
