package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two clients drain a queue together through PgBouncer in transaction mode, where consecutive
 * statements of one pooled connection run on different server connections: every job must be
 * worked exactly once, whether the clients hear of inserts on a direct listen URL or poll.
 */
class PgBouncerDrainTest {
    private static final int JOBS = 4_000;
    private static final int WORKERS = 20;
    private static final String QUEUE = "drain";
    private static final Duration DRAIN = Duration.ofSeconds(90);

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void drainsExactlyOnceWithAListenUrl() throws Exception {
        drain(true);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void drainsExactlyOnceByPolling() throws Exception {
        drain(false);
    }

    /**
     * A client with a poll far longer than the test's wait hears of another process's insert at
     * once through its listen URL; without one, it does not listen, and finds the job by polling.
     */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aListenUrlWakesTheClientAndWithoutOneItPolls() throws Exception {
        String schema = db.create();
        PgBouncer bouncer = PgBouncer.get();
        try (PostgresDriver listening = bouncer.driver(schema, true);
                PostgresDriver polling = bouncer.driver(schema, false);
                Runnel inserter = Runnel.builder().driver(bouncer.driver(schema, false)).autoMigrate(true).build()) {
            assertThat(listening.supportsListenNotify()).isTrue();
            assertThat(polling.supportsListenNotify()).isFalse();
            DrainWorker heard = new DrainWorker(Duration.ZERO);
            try (Runnel client = Runnel.builder().driver(listening).queue("heard", 1).worker(DrainJob.class, heard)
                    .fetchPollInterval(Duration.ofMinutes(5)).build()) {
                client.start();
                // The first poll runs at start; wait for it to find the queue empty.
                Thread.sleep(500);
                long id = inserter.insert(new DrainJob(1), InsertOptions.builder().queue("heard").build()).id();
                Await.until("the job heard of through the listen URL", Duration.ofSeconds(10), () -> heard.ids().contains(id));
            }
            DrainWorker polled = new DrainWorker(Duration.ZERO);
            try (Runnel client = Runnel.builder().driver(polling).queue("polled", 1).worker(DrainJob.class, polled)
                    .fetchPollInterval(Duration.ofMillis(200)).build()) {
                client.start();
                Thread.sleep(500);
                long id = inserter.insert(new DrainJob(2), InsertOptions.builder().queue("polled").build()).id();
                Await.until("the job found by polling", Duration.ofSeconds(10), () -> polled.ids().contains(id));
                Await.until("the polled job completed", Duration.ofSeconds(10), () -> inserter.jobGet(id).orElseThrow().state() == JobState.COMPLETED);
            }
        }
    }

    private void drain(boolean listen) throws Exception {
        String schema = db.create();
        PgBouncer bouncer = PgBouncer.get();
        Map<String, DrainWorker> workers = new LinkedHashMap<>();
        Map<String, Runnel> clients = new LinkedHashMap<>();
        try (Runnel reader = Runnel.builder().driver(bouncer.driver(schema, listen)).autoMigrate(true).build()) {
            for (int i = 1; i <= 2; i++) {
                String clientId = "bouncer-" + i;
                DrainWorker worker = new DrainWorker(Duration.ZERO);
                workers.put(clientId, worker);
                clients.put(clientId, DrainCheck.client(bouncer.driver(schema, listen), QUEUE, WORKERS, worker, clientId));
            }
            clients.values().forEach(Runnel::start);
            // Inserted while the clients run, in batches: each batch is a wake-up (or a poll) for them.
            Set<Long> inserted = DrainCheck.insert(reader, QUEUE, JOBS);
            long started = System.nanoTime();
            DrainCheck.awaitCompleted(reader, JOBS, DRAIN);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            for (Runnel client : clients.values()) {
                client.close();
            }
            Map<String, List<Long>> workedBy = new LinkedHashMap<>();
            workers.forEach((clientId, worker) -> workedBy.put(clientId, worker.ids()));
            System.out.printf("PgBouncerDrainTest (%s): %d jobs drained in %d ms, by client %s%n",
                    listen ? "listen_url" : "polling", JOBS, millis,
                    workedBy.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().size()).toList());
            Map<Long, String> worker = DrainCheck.assertWorkedExactlyOnce(inserted, workedBy);
            DrainCheck.assertStoredCompletedOnce(reader, worker);
        } catch (Throwable failure) {
            failure.addSuppressed(new AssertionError("PgBouncer log:\n" + bouncer.log()));
            throw failure;
        } finally {
            for (Runnel client : clients.values()) {
                client.close();
            }
        }
    }
}
