package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.testkit.LocalRedis;
import dev.runnel.InsertOptions;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.QueueRegisterParams;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.TcpProxy;
import dev.runnel.testkit.conformance.DriverConformance.TestArgs;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Wake-ups pushed over the namespace's channel, between drivers that share nothing but the
 * server, as two processes would: what each write publishes, a job started by an insert long
 * before its client's poll, a cancel that interrupts a running job before the cancel poll, and
 * the subscription back after the server killed it.
 */
class RedisListenerTest {
    private static final Duration HEARD = Duration.ofSeconds(5);
    private static RedisClient raw;
    private static StatefulRedisConnection<String, String> rawConnection;
    private static RedisCommands<String, String> redis;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private String prefix;

    @BeforeAll
    static void connectRaw() {
        raw = RedisClient.create("redis://127.0.0.1:" + LocalRedis.shared().port() + "/0");
        rawConnection = raw.connect();
        redis = rawConnection.sync();
    }

    @AfterAll
    static void closeRaw() {
        rawConnection.close();
        raw.shutdown();
    }

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

    /** A driver of its own (its own connections) on the test's namespace. */
    private RedisDriver driver() {
        RedisDriver driver = RedisDriver.open(LocalRedis.shared().url(prefix));
        opened.add(driver);
        new dev.runnel.Migrator(driver).up();
        return driver;
    }

    private BlockingQueue<String> listen(RedisDriver driver) throws Exception {
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        opened.add(driver.listenInserts(heard::add));
        // The first message says that the subscription is in place: clients then poll only as a safety net.
        assertThat(next(heard)).isEqualTo(Driver.LISTENING);
        return heard;
    }

    private static String next(BlockingQueue<String> heard) throws InterruptedException {
        String message = heard.poll(HEARD.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(message).as("a message on the wake-up channel within " + HEARD).isNotNull();
        return message;
    }

    @Test
    void everyWriteThatMakesJobsAvailableOrAsksForACancelIsHeardByAnotherDriver() throws Exception {
        RedisDriver writer = driver();
        BlockingQueue<String> heard = listen(driver());
        Runnel inserter = Runnel.builder().driver(writer).build();
        Instant now = Instant.now();

        // A batch over two queues: one message per queue, not per job.
        inserter.insertMany(List.of(new dev.runnel.InsertRequest(new TestArgs("a", 1), InsertOptions.builder().queue("q1").build()),
                new dev.runnel.InsertRequest(new TestArgs("a", 2), InsertOptions.builder().queue("q1").build()),
                new dev.runnel.InsertRequest(new TestArgs("a", 3), InsertOptions.builder().queue("q2").build())));
        assertThat(List.of(next(heard), next(heard))).containsExactlyInAnyOrder("q1", "q2");

        // A scheduled job says nothing at insert, and wakes its queue once it is due.
        inserter.insert(new TestArgs("later", 0), InsertOptions.builder().queue("q3").scheduledAt(now.plusSeconds(1)).build());
        assertThat(writer.jobScheduleDue(new JobScheduleParams(now.plusSeconds(2), 100))).isEqualTo(1);
        assertThat(next(heard)).isEqualTo("q3");

        // A running job's cancel is a control message; a retried job wakes its queue.
        long running = writer.jobClaim(new JobClaimParams("q1", 1, Instant.now().plusSeconds(1), "c1", false))
                .getFirst().id();
        writer.jobCancelMany(new JobCancelParams(new long[] {running}, now, "test"));
        String control = next(heard);
        assertThat(control).isEqualTo("\u0001cancel");
        assertThat(Character.isISOControl(control.charAt(0))).isTrue();
        assertThat(writer.jobGet(running).orElseThrow().state()).isEqualTo(JobState.RUNNING);
        long available = inserter.jobs().list(dev.runnel.JobQuery.all().queue("q1").states(JobState.AVAILABLE))
                .getFirst().id();
        inserter.jobs().cancel(available);
        assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).as("a cancel of a job not running tells no client").isNull();
        writer.jobRetryMany(new JobRetryManyParams(new long[] {available}, now));
        assertThat(next(heard)).isEqualTo("q1");

        // A resumed queue is woken; a paused one, or one resumed that was not paused, is not.
        writer.queueRegister(new QueueRegisterParams(List.of("q4"), now));
        writer.queueSetPaused(new QueuePauseParams(Optional.of("q4"), true, now));
        writer.queueSetPaused(new QueuePauseParams(Optional.of("q4"), false, now));
        assertThat(next(heard)).isEqualTo("q4");
        writer.queueSetPaused(new QueuePauseParams(Optional.of("q4"), false, now));
        assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void anInsertFromAnotherDriverStartsAJobLongBeforeThePollInterval() throws Exception {
        BlockingQueue<Long> started = new LinkedBlockingQueue<>();
        Runnel worker = Runnel.builder().driver(driver()).fetchPollInterval(Duration.ofMinutes(10))
                .queue("default", 5).worker(TestArgs.class, job -> started.add(job.id())).build();
        opened.add(() -> worker.stop(Duration.ofSeconds(5)));
        worker.start();
        Runnel inserter = Runnel.builder().driver(driver()).build();
        for (int i = 0; i < 3; i++) {
            long id = inserter.insert(new TestArgs("pushed", i)).id();
            assertThat(started.poll(HEARD.toMillis(), TimeUnit.MILLISECONDS))
                    .as("job %d started by its insert's wake-up, the poll being ten minutes away", id).isEqualTo(id);
        }
    }

    @Test
    void aCancelFromAnotherDriverInterruptsTheRunningJobBeforeTheCancelPoll() throws Exception {
        BlockingQueue<Long> running = new LinkedBlockingQueue<>();
        Map<Long, Long> interruptedAt = new java.util.concurrent.ConcurrentHashMap<>();
        Runnel worker = Runnel.builder().driver(driver()).queue("default", 1).worker(TestArgs.class, job -> {
            running.add(job.id());
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interruptedAt.put(job.id(), System.nanoTime());
                throw e;
            }
        }).build();
        opened.add(() -> worker.stop(Duration.ofSeconds(5)));
        worker.start();
        Runnel admin = Runnel.builder().driver(driver()).build();
        // The cancel watcher asks once a second (CancelWatcher.POLL); pushed, each cancel lands in
        // milliseconds. Three in a row under 300 ms each would be luck one time in about forty.
        for (int i = 0; i < 3; i++) {
            long id = admin.insert(new TestArgs("long", i)).id();
            assertThat(running.poll(HEARD.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(id);
            long asked = System.nanoTime();
            admin.jobs().cancel(id);
            Await.until("job " + id + " interrupted", HEARD, () -> interruptedAt.containsKey(id));
            assertThat(Duration.ofNanos(interruptedAt.get(id) - asked)).isLessThan(Duration.ofMillis(300));
            Await.until("job " + id + " cancelled", HEARD,
                    () -> admin.jobs().get(id).orElseThrow().state() == JobState.CANCELLED);
        }
    }

    @Test
    void theSubscriptionComesBackAfterTheServerKillsIt() throws Exception {
        RedisDriver writer = driver();
        RedisDriver listening = driver();
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        RedisListener listener = (RedisListener) listening.listenInserts(heard::add);
        opened.add(listener);
        String channel = RedisListener.channel(prefix);
        assertThat(shardSubscribers(channel)).isEqualTo(1);
        assertThat(next(heard)).isEqualTo(Driver.LISTENING);

        assertThat(redis.clientKill(KillArgs.Builder.typePubsub())).isGreaterThanOrEqualTo(1);
        // Told both ways: clients poll while nothing is heard, and claim once it is heard again.
        assertThat(next(heard)).isEqualTo(Driver.NOT_LISTENING);
        assertThat(next(heard)).isEqualTo(Driver.LISTENING);
        Await.until("the listener subscribed again", HEARD, () -> shardSubscribers(channel) == 1);
        Await.until("the listener connected again", HEARD, listener::subscribed);

        Runnel inserter = Runnel.builder().driver(writer).build();
        inserter.insert(new TestArgs("after the kill", 0), InsertOptions.builder().queue("back").build());
        assertThat(next(heard)).isEqualTo("back");
        // The calls' own connection was never touched: the writer still works, and only one listener subscribes.
        assertThat(shardSubscribers(channel)).isEqualTo(1);
    }

    @Test
    void closingTheListenerUnsubscribesAndClosingTheDriverClosesItsListeners() throws Exception {
        RedisDriver driver = RedisDriver.open(LocalRedis.shared().url(prefix));
        String channel = RedisListener.channel(prefix);
        AutoCloseable first = driver.listenInserts(q -> {});
        driver.listenInserts(q -> {});
        assertThat(shardSubscribers(channel)).isEqualTo(2);
        first.close();
        first.close();
        Await.until("one subscriber left", HEARD, () -> shardSubscribers(channel) == 1);
        driver.close();
        Await.until("no subscriber left", HEARD, () -> shardSubscribers(channel) == 0);
    }

    @Test
    void aListenerThatCannotReachTheServerAtStartSubscribesOnceItCan() throws Exception {
        RedisDriver writer = driver();
        try (TcpProxy proxy = TcpProxy.start("127.0.0.1", LocalRedis.shared().port())) {
            proxy.refuseNew(true);
            RedisUrl url = RedisUrl.parse("redis://127.0.0.1:" + proxy.port() + "/0?prefix=" + prefix);
            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            CountDownLatch closed = new CountDownLatch(1);
            // Returns at once, not subscribed; keeps trying in the background.
            RedisListener listener = RedisListener.start(url, heard::add, l -> closed.countDown());
            try {
                assertThat(listener.subscribed()).isFalse();
                proxy.refuseNew(false);
                Await.until("the listener subscribed", Duration.ofSeconds(15), listener::subscribed);
                Await.until("the server counts the subscription", HEARD,
                        () -> shardSubscribers(RedisListener.channel(prefix)) == 1);
                assertThat(next(heard)).isEqualTo(Driver.LISTENING);
                Runnel.builder().driver(writer).build().insert(new TestArgs("reachable", 0),
                        InsertOptions.builder().queue("late").build());
                assertThat(next(heard)).isEqualTo("late");
            } finally {
                listener.close();
            }
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aUserWhoseAclGrantsNoChannelStillWritesAndItsClientsPoll() throws Exception {
        // Redis 7 gives a new ACL user no channels (acl-pubsub-default resetchannels).
        String user = "u" + prefix;
        redis.aclSetuser(user, io.lettuce.core.AclSetuserArgs.Builder.on().addPassword("pw").allKeys().allCommands());
        try {
            RedisDriver driver = RedisDriver.open("redis://" + user + ":pw@127.0.0.1:" + LocalRedis.shared().port()
                    + "/0?prefix=" + prefix);
            opened.add(driver);
            new dev.runnel.Migrator(driver).up();
            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            RedisListener listener = (RedisListener) driver.listenInserts(heard::add);
            opened.add(listener);
            assertThat(listener.subscribed()).isFalse();
            assertThat(heard).as("never said to listen, so its clients keep polling").isEmpty();
            BlockingQueue<Long> started = new LinkedBlockingQueue<>();
            Runnel worker = Runnel.builder().driver(driver).fetchPollInterval(Duration.ofMillis(200))
                    .queue("default", 1).worker(TestArgs.class, job -> started.add(job.id())).build();
            opened.add(() -> worker.stop(Duration.ofSeconds(5)));
            worker.start();
            long id = Runnel.builder().driver(driver).build().insert(new TestArgs("polled", 0)).id();
            assertThat(started.poll(HEARD.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(id);
        } finally {
            redis.aclDeluser(user);
        }
    }

    private static long shardSubscribers(String channel) {
        Map<String, Long> counts = redis.pubsubShardNumsub(channel);
        return counts.getOrDefault(channel, 0L);
    }
}
