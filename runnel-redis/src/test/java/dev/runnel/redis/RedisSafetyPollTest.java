package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RuntimeListener;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.LocalRedis;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * While a client hears the namespace's wake-ups it polls only at its safety poll interval (here an
 * hour), and every job made available through Runnel still starts at once: inserted by another
 * client, made due by the scheduler, retried, in a resumed queue, or in a queue given a limit. When
 * its subscription is killed it polls again, and finds at once what no one announced.
 */
class RedisSafetyPollTest {
    record Ping(String name) implements JobArgs {
        @Override
        public String kind() {
            return "ping";
        }
    }

    private final Set<String> started = ConcurrentHashMap.newKeySet();
    private final AtomicInteger claims = new AtomicInteger();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private String prefix;
    private Runnel other;

    @BeforeEach
    void namespace() {
        prefix = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
    }

    private RedisDriver driver(String url) {
        RedisDriver driver = RedisDriver.open(url);
        opened.add(driver);
        new dev.runnel.Migrator(driver).up();
        return driver;
    }

    /**
     * A worker client polling every 50 ms unless it hears wake-ups, then every hour; and another
     * client, which works nothing, for inserts, retries, pauses and limits.
     */
    private void start() {
        Runnel worker = Runnel.builder().driver(driver(LocalRedis.shared().url(prefix))).clientId("worker")
                .fetchPollInterval(Duration.ofMillis(50))
                .fetchSafetyPollInterval(Duration.ofHours(1))
                .schedulerInterval(Duration.ofMillis(50))
                // A failed attempt waits an hour, so that only the retry below makes it available.
                .retryPolicy(attempt -> Duration.ofHours(1))
                .queue("q", 5)
                .worker(Ping.class, job -> {
                    if (job.args().name().startsWith("fail-once") && job.attempt() == 1) {
                        throw new IllegalStateException("first attempt fails");
                    }
                    started.add(job.args().name());
                })
                .runtimeListener(new RuntimeListener() {
                    @Override
                    public void claimed(String queue, int requested, int claimed, Duration took) {
                        claims.incrementAndGet();
                    }
                })
                .build();
        opened.add(() -> worker.stop(Duration.ofSeconds(5)));
        worker.start();
        other = Runnel.builder().driver(driver(LocalRedis.shared().url(prefix))).build();
    }

    private void insert(Runnel into, String name) {
        into.insert(new Ping(name), InsertOptions.builder().queue("q").build());
    }

    @Test
    void aListeningClientPollsOnlyAtItsSafetyIntervalAndStartsEveryAnnouncedJobAtOnce() throws Exception {
        start();
        insert(other, "inserted");
        Await.until("the inserted job to start", () -> started.contains("inserted"));

        // Idle: at the 50 ms poll this would be 20 claims a second; listening, none but a wake-up's.
        int before = claims.get();
        Thread.sleep(1_000);
        assertThat(claims.get() - before).as("claims in an idle second").isLessThanOrEqualTo(2);

        other.insert(new Ping("scheduled"), InsertOptions.builder().queue("q")
                .scheduledAt(Instant.now().plusMillis(300)).build());
        Await.until("the scheduled job to start once due", () -> started.contains("scheduled"));

        long failing = other.insert(new Ping("fail-once"), InsertOptions.builder().queue("q").build()).id();
        Await.until("the failed attempt to be stored",
                () -> other.jobs().get(failing).orElseThrow().state() == JobState.RETRYABLE);
        other.jobs().retry(failing);
        Await.until("the retried job to start", () -> started.contains("fail-once"));

        other.queues().pause("q");
        insert(other, "paused");
        other.queues().resume("q");
        Await.until("the job of the resumed queue to start", () -> started.contains("paused"));
    }

    @Test
    void aLimitGivenAtRuntimeReachesAListeningClientAtOnceAndItsQueueWorksOnUnderIt() throws Exception {
        start();
        insert(other, "before");
        Await.until("the job before the limit to start", () -> started.contains("before"));
        // A queue given a limit is claimed only under limits: the client must learn of it now, not
        // at its hourly poll, or the queue would stand still.
        other.queues().setGlobalLimit("q", 2);
        insert(other, "limited");
        Await.until("the job inserted under the new limit to start", () -> started.contains("limited"));
        other.queues().clearGlobalLimit("q");
        insert(other, "unlimited again");
        Await.until("the job inserted once the limit was removed to start", () -> started.contains("unlimited again"));
    }

    @Test
    void whenItsSubscriptionIsKilledItPollsAgainAndFindsWhatNoOneAnnounced() throws Exception {
        start();
        insert(other, "first");
        Await.until("the first job to start", () -> started.contains("first"));

        // A user whose ACL grants no channel writes without announcing (its publish is refused).
        String user = "u" + prefix;
        RedisClient raw = RedisClient.create("redis://127.0.0.1:" + LocalRedis.shared().port() + "/0");
        try (StatefulRedisConnection<String, String> admin = raw.connect()) {
            admin.sync().aclSetuser(user, AclSetuserArgs.Builder.on().addPassword("pw").allKeys().allCommands());
            try {
                Runnel quiet = Runnel.builder().driver(driver("redis://" + user + ":pw@127.0.0.1:"
                        + LocalRedis.shared().port() + "/0?prefix=" + prefix)).build();
                int before = claims.get();
                insert(quiet, "unannounced");
                Thread.sleep(500);
                assertThat(claims.get()).as("no poll while listening").isEqualTo(before);
                assertThat(started).doesNotContain("unannounced");

                assertThat(admin.sync().clientKill(KillArgs.Builder.typePubsub())).isGreaterThanOrEqualTo(1);
                Await.until("the unannounced job to start once the client polls again",
                        () -> started.contains("unannounced"));
            } finally {
                admin.sync().aclDeluser(user);
            }
        } finally {
            raw.shutdown();
        }
    }
}
