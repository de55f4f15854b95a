package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Drivers;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.RunnelConnectException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobInsertTxParams;
import dev.runnel.testkit.LocalRedis;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Instant;
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
                    new JobInsertParams("k", "{}", "a", 2, JobState.SCHEDULED, T0, T0.plusSeconds(60), 25, List.of(), "{}")));
            driver.jobClaim(new JobClaimParams("a", 1, T0, "client-1"));
            List<String> keys = redis.keys("*" + prefix + "*");
            assertThat(keys).isNotEmpty().allSatisfy(k -> assertThat(k).startsWith("{" + prefix + "}:"));
            assertThat(new Migrator(driver).down(1)).containsExactly(1);
            assertThat(redis.keys("*" + prefix + "*")).isEmpty();
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
