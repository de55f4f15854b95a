package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.RuntimeListener;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobQueuesDueParams;
import dev.runnel.testkit.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that hears its driver's notifications polls only at its safety poll interval (here an
 * hour), and every job made available through Runnel still starts at once: inserted by another
 * client, made due by the scheduler, retried, in a resumed queue, or in a queue given a limit at
 * runtime. For a driver that {@link Driver#supportsListenNotify() listens}; the worker and the other
 * client each have a driver of their own on one store, as two processes would. A client of many
 * queues looks for jobs no one announced once an interval for all of them ({@link
 * Driver#jobQueuesDue}), and only a queue where one waits claims. Once its listening connection is
 * cut, it polls again and finds what no one announced.
 */
public abstract class ListeningClientConformance {
    /** The test jobs' args: the worker records each name it starts. */
    public record Ping(String name) implements JobArgs {
        @Override
        public String kind() {
            return "ping";
        }
    }

    /** The names of the jobs the worker started. */
    protected final Set<String> started = ConcurrentHashMap.newKeySet();
    /** How many claims the worker made. */
    protected final AtomicInteger claims = new AtomicInteger();
    /** The client that inserts, retries, pauses and sets limits; it works nothing. */
    protected Runnel other;
    private Runnel worker;
    private final List<Driver> drivers = new ArrayList<>();

    /** A new, migrated store for this test, and a driver on it, which {@link #start()} closes after the test. */
    protected abstract Driver newStore();

    /** Another driver on the store {@link #newStore()} made last, with its own connections. */
    protected abstract Driver sameStore();

    /**
     * Makes a job named {@code name} available now in {@code queue} of the store {@link #newStore()}
     * made last, behind Runnel's back: no notification announces it.
     */
    protected abstract void insertUnannounced(String queue, String name) throws Exception;

    /** Cuts the listening connection of the worker's driver, as a network fault or a server would. */
    protected abstract void cutListening() throws Exception;

    @AfterEach
    void stopClients() {
        for (Runnel r : new Runnel[] {worker, other}) {
            if (r != null) {
                r.stop(Duration.ofSeconds(5));
            }
        }
        drivers.forEach(Driver::close);
    }

    /**
     * Starts a worker client polling every 50 ms unless it hears notifications, then every hour,
     * and the other client, each on a driver of its own; both stopped, and their drivers closed,
     * after the test.
     */
    protected void start() {
        start(Duration.ofHours(1), List.of("q"));
    }

    /**
     * As {@link #start()}, the worker working {@code queues} (5 slots each) and, while it listens,
     * looking for jobs no one announced every {@code safetyPoll}.
     */
    private void start(Duration safetyPoll, List<String> queues) {
        drivers.add(newStore());
        drivers.add(sameStore());
        RunnelBuilder builder = Runnel.builder().driver(drivers.get(0)).clientId("worker")
                .fetchPollInterval(Duration.ofMillis(50))
                .fetchSafetyPollInterval(safetyPoll)
                .schedulerInterval(Duration.ofMillis(50))
                // A failed attempt waits an hour, so that only the retry below makes it available.
                .retryPolicy(attempt -> Duration.ofHours(1));
        queues.forEach(queue -> builder.queue(queue, 5));
        worker = builder
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
        worker.start();
        other = Runnel.builder().driver(drivers.get(1)).build();
    }

    /**
     * Waits until the worker has made no claim for {@code quiet}, at most {@link Await#DEFAULT_TIMEOUT}:
     * the claims a start or a signal brings are over.
     */
    private void awaitNoClaimFor(Duration quiet) throws InterruptedException {
        long deadline = System.nanoTime() + Await.DEFAULT_TIMEOUT.toNanos();
        int seen;
        do {
            seen = claims.get();
            Thread.sleep(quiet.toMillis());
        } while (claims.get() != seen && System.nanoTime() < deadline);
        assertThat(claims.get()).as("claims went on for " + Await.DEFAULT_TIMEOUT.toSeconds() + " s").isEqualTo(seen);
    }

    /** Inserts job {@code name} into queue q through {@code into}; returns its id. */
    protected static long insert(Runnel into, String name) {
        return into.insert(new Ping(name), InsertOptions.builder().queue("q").build()).id();
    }

    @Test
    void aListeningClientPollsOnlyAtItsSafetyIntervalAndStartsEveryAnnouncedJobAtOnce() throws Exception {
        start();
        insert(other, "inserted");
        Await.until("the inserted job to start", () -> started.contains("inserted"));

        // Idle: at the 50 ms poll this would be 20 claims a second; listening, none but a signal's.
        int before = claims.get();
        Thread.sleep(1_000);
        assertThat(claims.get() - before).as("claims in an idle second").isLessThanOrEqualTo(2);

        other.insert(new Ping("scheduled"), InsertOptions.builder().queue("q")
                .scheduledAt(Instant.now().plusMillis(300)).build());
        Await.until("the scheduled job to start once due", () -> started.contains("scheduled"));

        long failing = insert(other, "fail-once");
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
    void theLookAtQueuesNamesExactlyThoseWithAJobAvailableAndDue() {
        Driver driver = newStore();
        drivers.add(driver);
        other = Runnel.builder().driver(driver).build();
        Instant now = Instant.now();
        other.insert(new Ping("due"), InsertOptions.builder().queue("due").build());
        other.insert(new Ping("later"), InsertOptions.builder().queue("later").scheduledAt(now.plusSeconds(60)).build());
        other.insert(new Ping("elsewhere"), InsertOptions.builder().queue("not_asked").build());
        List<String> asked = List.of("due", "later", "empty");
        assertThat(driver.jobQueuesDue(new JobQueuesDueParams(asked, now.plusSeconds(1)))).containsExactly("due");
        // A job scheduled ahead is not available until the scheduler makes it so, and announces it.
        assertThat(driver.jobQueuesDue(new JobQueuesDueParams(asked, now.plusSeconds(61)))).containsExactly("due");
        assertThat(driver.jobQueuesDue(new JobQueuesDueParams(List.of(), now))).isEmpty();
    }

    @Test
    void theClientLooksOnceForAllItsIdleQueuesAndOnlyAQueueWhereAJobWaitsClaims() throws Exception {
        List<String> queues = new ArrayList<>();
        for (int q = 0; q < 20; q++) {
            queues.add("q" + q);
        }
        start(Duration.ofMillis(500), queues);
        other.insert(new Ping("announced"), InsertOptions.builder().queue("q3").build());
        Await.until("the announced job to start", () -> started.contains("announced"));
        // Each queue claims once as the client starts, and on a busy machine some of those twenty
        // claims come after the announced job has started.
        awaitNoClaimFor(Duration.ofMillis(300));

        // Twenty queues polling every 500 ms would claim 80 times in two seconds; the client looks
        // once for all of them every 500 ms, finds no job due, and no queue claims (one late claim
        // of the announced job's queue aside).
        int before = claims.get();
        Thread.sleep(2_000);
        assertThat(claims.get() - before).as("claims in two idle seconds").isLessThanOrEqualTo(1);

        // Unannounced: the client's look finds it, and only its queue claims.
        insertUnannounced("q7", "unannounced");
        Await.until("the unannounced job to start at a safety poll", () -> started.contains("unannounced"));
    }

    @Test
    void whenItsListeningConnectionIsCutItPollsAgainAndFindsWhatNoOneAnnounced() throws Exception {
        start();
        insert(other, "first");
        Await.until("the first job to start", () -> started.contains("first"));
        // The first job may have been claimed by a poll before the subscription was in place, or
        // its announcement heard after that claim: either is followed by a claim of its own.
        awaitNoClaimFor(Duration.ofMillis(300));

        // No notification, so the listening client waits for its hour.
        int before = claims.get();
        insertUnannounced("q", "unannounced");
        Thread.sleep(500);
        assertThat(claims.get()).as("no poll while listening").isEqualTo(before);
        assertThat(started).doesNotContain("unannounced");

        cutListening();
        Await.until("the unannounced job to start once the client polls again", () -> started.contains("unannounced"));
    }
}
