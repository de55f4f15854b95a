package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Drivers;
import dev.runnel.InsertResult;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.RunnelConnectException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobInsertTxParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.testkit.LocalRedis;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the Redis driver does that the conformance suite does not ask of every driver. */
class RedisDriverTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final RedisCommands<String, String> redis = RawRedis.commands();

    private static JobInsertParams job(String queue) {
        return new JobInsertParams("k", "{}", queue, 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}");
    }

    @Test
    void drivesOpenThroughDriversByTheirUrl() {
        try (Driver driver = Drivers.open(LocalRedis.shared().freshUrl())) {
            assertThat(driver).isInstanceOf(RedisDriver.class);
            assertThat(driver.name()).isEqualTo("redis");
            assertThat(driver.supportsTransactionalInsert()).isFalse();
        }
    }

    @Test
    void aRefusedPortIsAConnectFailureNamingWhere() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        assertThatThrownBy(() -> RedisDriver.open("redis://127.0.0.1:" + port + "/0"))
                .isInstanceOf(RunnelConnectException.class).hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void aWrongPasswordIsAConnectFailureThatNeverShowsThePassword() {
        String user = "u" + UUID.randomUUID().toString().substring(0, 8);
        redis.aclSetuser(user, io.lettuce.core.AclSetuserArgs.Builder.on().addPassword("right-one").allKeys()
                .allCommands());
        int port = LocalRedis.shared().port();
        assertThatThrownBy(() -> RedisDriver.open("redis://" + user + ":wrong-one@127.0.0.1:" + port + "/0"))
                .isInstanceOf(RunnelConnectException.class).hasMessageContaining("authentication failed")
                .hasMessageNotContaining("wrong-one");
        try (RedisDriver driver = RedisDriver.open("redis://" + user + ":right-one@127.0.0.1:" + port + "/0?prefix="
                + user)) {
            assertThat(driver.jobInsertMany(List.of(job("q")))).hasSize(1);
        }
    }

    @Test
    void insertInsideAnApplicationsTransactionIsRefusedAtOnceNamingTheWaysOut() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            assertThatThrownBy(() -> driver.jobInsertManyTx(new JobInsertTxParams(null, List.of(job("q")))))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("after the transaction commits").hasMessageContaining("outbox");
            assertThat(driver.jobCountByState()).isEmpty();
        }
    }

    @Test
    void aLibraryTheServerLostIsLoadedAgainAndTheCallRepeated() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            redis.functionFlush(io.lettuce.core.FlushMode.SYNC);
            long id = driver.jobInsertMany(List.of(job("q"))).getFirst().id();
            assertThat(driver.jobGet(id)).isPresent();
        }
    }

    @Test
    void everyKeyOfANamespaceSharesItsHashTagAndRevertingTheMigrationDeletesThemAll() {
        String prefix = "drop" + UUID.randomUUID().toString().substring(0, 8);
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().url(prefix))) {
            new Migrator(driver).up();
            driver.jobInsertMany(List.of(job("a"), job("b"),
                    new JobInsertParams("k", "{}", "a", 2, JobState.SCHEDULED, T0, T0.plusSeconds(60), 25, List.of(), "{}"),
                    new JobInsertParams("k", "{}", "a", 2, JobState.PENDING, T0, T0, 25, List.of(), "{}")));
            // More jobs than one call of the drop deletes, in every state a run leaves.
            List<JobInsertParams> many = new ArrayList<>();
            for (int i = 0; i < RedisNamespace.DROP_BATCH + 500; i++) {
                many.add(job("c"));
            }
            driver.jobInsertMany(many);
            driver.jobClaim(new JobClaimParams("a", 1, T0, "client-1"));
            driver.jobCompleteMany(JobCompleteManyParams.of(driver.jobClaim(new JobClaimParams("c", 100, T0, "client-1")), T0));
            List<String> keys = redis.keys("*" + prefix + "*");
            assertThat(keys).isNotEmpty().allSatisfy(k -> assertThat(k).startsWith("{" + prefix + "}:"));
            assertThat(new Migrator(driver).down(1)).containsExactly(1);
            assertThat(redis.keys("*" + prefix + "*")).isEmpty();
        }
    }

    @Test
    void aListingOfSeveralStatesMergesEachStatesIdsInOrderOverManyCalls() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            List<JobInsertParams> batch = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                batch.add(i % 3 == 0
                        ? new JobInsertParams("k", "{}", "q", 1, JobState.SCHEDULED, T0, T0.plusSeconds(60), 25, List.of(), "{}")
                        : job("q"));
            }
            List<Long> ids = driver.jobInsertMany(batch).stream().map(InsertResult::id).toList();
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams("q", 1_500, T0, "client-1"));
            driver.jobCompleteMany(JobCompleteManyParams.of(claimed.subList(0, 700), T0));
            // Four states now, their ids interleaved; each call of the driver reads 2,000 ids at most.
            assertThat(driver.jobList(JobQuery.all().limit(10_000))).extracting(JobRow::id).containsExactlyElementsOf(ids);
            assertThat(driver.jobList(JobQuery.all().newestFirst().limit(10_000))).extracting(JobRow::id)
                    .containsExactlyElementsOf(ids.reversed());
            assertThat(driver.jobList(JobQuery.inStates(JobState.RUNNING, JobState.COMPLETED).limit(10_000)))
                    .extracting(JobRow::id).containsExactlyElementsOf(claimed.stream().map(JobRow::id).sorted().toList());
            assertThat(driver.jobList(JobQuery.all().afterId(ids.get(2_499)).limit(3))).extracting(JobRow::id)
                    .containsExactlyElementsOf(ids.subList(2_500, 2_503));
            assertThat(driver.jobList(JobQuery.all().beforeId(ids.get(2_500)).limit(3))).extracting(JobRow::id)
                    .containsExactlyElementsOf(ids.subList(2_497, 2_500));
        }
    }

    @Test
    void aNewJobsHashHoldsTheFieldsAClaimReadsFirstAndNoEmptyListOrMetadata() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            long plain = driver.jobInsertMany(List.of(job("q"))).getFirst().id();
            long tagged = driver.jobInsertMany(List.of(new JobInsertParams("k", "{}", "q", 1, JobState.AVAILABLE, T0, T0, 25,
                    List.of("red"), "{\"team\":\"a\"}"))).getFirst().id();
            assertThat(redis.hkeys(driver.keyPrefix() + "job:" + plain)).containsExactly("kind", "args", "priority",
                    "attempt", "max_attempts", "created_at", "scheduled_at", "state", "queue", "sk");
            assertThat(redis.hkeys(driver.keyPrefix() + "job:" + tagged)).endsWith("tags", "metadata");
            JobRow row = driver.jobGet(plain).orElseThrow();
            assertThat(row.tags()).isEmpty();
            assertThat(row.metadata()).isEqualTo("{}");
            assertThat(row.errors()).isEmpty();
            assertThat(row.attemptedBy()).isEmpty();
            assertThat(driver.jobGet(tagged).orElseThrow().tags()).containsExactly("red");
            // The first claim writes the list of clients it adds to.
            driver.jobClaim(new JobClaimParams("q", 2, T0, "client-1"));
            assertThat(driver.jobGet(plain).orElseThrow().attemptedBy()).containsExactly("client-1");
        }
    }

    @Test
    void aClaimReadsAJobAsInsertedAndAJobWithMoreFieldsAlike() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            byte[] key = {1, 2, 3};
            int states = dev.runnel.driver.UniqueStates.mask(java.util.EnumSet.of(JobState.AVAILABLE, JobState.RUNNING));
            JobInsertParams unique = new JobInsertParams("k", "{\"a\":1}", "q", 1, JobState.AVAILABLE, T0, T0, 25,
                    List.of(), "{}", key, states);
            List<InsertResult> inserted = driver.jobInsertMany(List.of(
                    new JobInsertParams("k", "{\"a\":1}", "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}"), unique,
                    new JobInsertParams("k", "{\"a\":1}", "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of("t"), "{\"m\":2}")));
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams("q", 10, T0, "client-1", true));
            assertThat(claimed).extracting(JobRow::id).containsExactlyElementsOf(inserted.stream().map(InsertResult::id).toList());
            assertThat(claimed).allSatisfy(r -> {
                assertThat(r.kind()).isEqualTo("k");
                assertThat(r.args()).isEqualTo("{\"a\":1}");
                assertThat(r.attempt()).isEqualTo(1);
                assertThat(r.maxAttempts()).isEqualTo(25);
                assertThat(r.createdAt()).isEqualTo(T0);
                assertThat(r.errors()).isEmpty();
            });
            assertThat(claimed.get(2).tags()).containsExactly("t");
            assertThat(claimed.get(2).metadata()).isEqualTo("{\"m\":2}");
            // The at-most-once claim removed the unique job, and with it the hold on its key.
            assertThat(driver.jobInsertMany(List.of(unique)).getFirst().duplicate()).isFalse();
            driver.jobClaim(new JobClaimParams("q", 10, T0, "client-1", true));

            List<InsertResult> again = driver.jobInsertMany(List.of(
                    new JobInsertParams("k", "{\"a\":1}", "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of(), "{}"), unique,
                    new JobInsertParams("k", "{\"a\":1}", "q", 1, JobState.AVAILABLE, T0, T0, 25, List.of("t"), "{\"m\":2}")));
            List<JobRow> running = driver.jobClaim(new JobClaimParams("q", 10, T0, "client-2"));
            assertThat(running).extracting(JobRow::id).containsExactlyElementsOf(again.stream().map(InsertResult::id).toList());
            assertThat(running).allSatisfy(r -> {
                assertThat(r.state()).isEqualTo(JobState.RUNNING);
                assertThat(r.attempt()).isEqualTo(1);
                assertThat(r.attemptedBy()).containsExactly("client-2");
            });
            for (JobRow r : running) {
                assertThat(driver.jobGet(r.id()).orElseThrow()).isEqualTo(r);
            }
        }
    }

    @Test
    void aJobAsEarlierVersionsWroteItIsListedClaimedAndCompletedAsBefore() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            String p = driver.keyPrefix();
            long id = redis.incr(p + "id");
            String at = RedisEncoding.micros(T0);
            // Every field that version wrote at insert, the empty lists and metadata too.
            redis.hset(p + "job:" + id, java.util.Map.ofEntries(
                    java.util.Map.entry("kind", "k"), java.util.Map.entry("args", "{\"old\":1}"),
                    java.util.Map.entry("queue", "q"), java.util.Map.entry("priority", "1"),
                    java.util.Map.entry("state", "available"), java.util.Map.entry("attempt", "0"),
                    java.util.Map.entry("max_attempts", "25"), java.util.Map.entry("created_at", at),
                    java.util.Map.entry("scheduled_at", at), java.util.Map.entry("sk", RedisEncoding.sortable(T0)),
                    java.util.Map.entry("tags", "[]"), java.util.Map.entry("metadata", "{}"),
                    java.util.Map.entry("errors", "[]"), java.util.Map.entry("attempted_by", "[]")));
            redis.zadd(p + "avail:q", 0, "1" + RedisEncoding.sortable(T0) + String.format("%016x", id));
            redis.zadd(p + "s:available", id, Long.toString(id));
            redis.zadd(p + "all", id, Long.toString(id));
            redis.hincrby(p + "counts", "available:q", 1);
            assertThat(driver.jobList(JobQuery.all())).extracting(JobRow::id).containsExactly(id);
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams("q", 10, T0, "client-1"));
            assertThat(claimed).singleElement().satisfies(r -> {
                assertThat(r.args()).isEqualTo("{\"old\":1}");
                assertThat(r.attemptedBy()).containsExactly("client-1");
                assertThat(r.tags()).isEmpty();
                assertThat(r.metadata()).isEqualTo("{}");
            });
            assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(claimed, T0))).containsExactly(id);
            assertThat(driver.jobGet(id).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        }
    }

    @Test
    void theSetOfEveryIdThatEarlierVersionsKeptIsDeletedByTheCleaner() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            long id = driver.jobInsertMany(List.of(job("q"))).getFirst().id();
            redis.zadd(driver.keyPrefix() + "all", id, Long.toString(id));
            assertThat(driver.leaderAttemptElect(new LeaderElectParams("leader-1", T0, T0.plusSeconds(60)))).isTrue();
            driver.jobDeleteFinalized(new JobDeleteFinalizedParams(new Lease("leader-1", T0), JobState.COMPLETED, T0, 100));
            assertThat(redis.exists(driver.keyPrefix() + "all")).isZero();
            assertThat(driver.jobGet(id)).isPresent();
        }
    }

    @Test
    void aJobHashWithoutItsFieldsIsReportedAndNeverStopsAClaimOrAListing() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            long broken = driver.jobInsertMany(List.of(job("q"))).getFirst().id();
            long good = driver.jobInsertMany(List.of(job("q"))).getFirst().id();
            redis.hdel(driver.keyPrefix() + "job:" + broken, "kind", "args");
            assertThat(driver.jobList(dev.runnel.JobQuery.all())).extracting(JobRow::id).containsExactly(good);
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams("q", 10, T0, "client-1"));
            assertThat(claimed).extracting(JobRow::id).containsExactly(good);
            assertThat(redis.sismember(driver.keyPrefix() + "broken", Long.toString(broken))).isTrue();
        }
    }

    @Test
    void theAuditLogListsNewestFirstInPagesBeforeAnId() {
        try (RedisDriver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            long a = driver.auditInsert(new dev.runnel.driver.AuditInsertParams(T0, "ann", "job.retry", "1", 1));
            long b = driver.auditInsert(new dev.runnel.driver.AuditInsertParams(T0.plusSeconds(1), "bob", "queue.pause",
                    "emails\nline two", 3));
            long c = driver.auditInsert(new dev.runnel.driver.AuditInsertParams(T0.plusSeconds(2), "ann", "job.delete",
                    "all jobs", 8));
            assertThat(driver.auditList(new dev.runnel.driver.AuditListParams(0, 10)))
                    .extracting(dev.runnel.AuditRow::id).containsExactly(c, b, a);
            List<dev.runnel.AuditRow> page = driver.auditList(new dev.runnel.driver.AuditListParams(c, 1));
            assertThat(page).containsExactly(new dev.runnel.AuditRow(b, T0.plusSeconds(1), "bob", "queue.pause",
                    "emails\nline two", 3));
        }
    }
}
