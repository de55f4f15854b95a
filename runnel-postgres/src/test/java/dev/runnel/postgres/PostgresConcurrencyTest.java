package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four clients, two in this JVM and one in each of two child JVMs, drain one queue of no-op jobs
 * together: SKIP LOCKED must hand every job to exactly one of them, once, and every outcome must
 * be written before a client's stop returns.
 */
class PostgresConcurrencyTest {
    private static final int JOBS = 20_000;
    /** Many slots per client, so that claims are big and overlap. */
    private static final int WORKERS = 50;
    private static final String QUEUE = "drain";
    /** A cold JVM on a busy two-core machine can take a while to start and connect. */
    private static final Duration CHILD_READY = Duration.ofSeconds(60);
    private static final Duration DRAIN = Duration.ofSeconds(60);
    private static final Duration CHILD_STOP = Duration.ofSeconds(30);
    /** The children end themselves after this, should this JVM die without destroying them. */
    private static final Duration CHILD_MAX_LIFE = Duration.ofMinutes(4);

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void fourClientsInThreeJvmsWorkEveryJobExactlyOnce() throws Exception {
        String schema = db.create();
        List<DrainWorkerProcess> children = new ArrayList<>();
        List<Runnel> clients = new ArrayList<>();
        try (Runnel reader = Runnel.builder().driver(PostgresTestSchema.driver(schema)).autoMigrate(true).build()) {
            Set<Long> inserted = DrainCheck.insert(reader, QUEUE, JOBS);

            for (int i = 1; i <= 2; i++) {
                children.add(DrainWorkerProcess.start(dir, "child-" + i, PostgresTestSchema.URL, schema, QUEUE,
                        WORKERS, CHILD_MAX_LIFE));
            }
            for (DrainWorkerProcess child : children) {
                child.awaitLine("READY", CHILD_READY);
            }
            Map<String, DrainWorker> local = new LinkedHashMap<>();
            for (int i = 1; i <= 2; i++) {
                DrainWorker worker = new DrainWorker(Duration.ZERO);
                String clientId = "local-" + i;
                local.put(clientId, worker);
                clients.add(Runnel.builder()
                        .driver(PostgresTestSchema.driver(schema))
                        .queue(QUEUE, WORKERS)
                        .worker(DrainJob.class, worker)
                        .clientId(clientId)
                        .build());
            }
            // The children are told first, and the local clients start once each child has claimed:
            // a cold JVM is slower to get going, and the local ones could drain every job before it.
            children.forEach(child -> child.send("GO"));
            Set<String> childIds = new HashSet<>();
            children.forEach(child -> childIds.add(child.clientId()));
            Await.until("each child JVM to claim jobs", () -> reader
                    .jobList(JobQuery.inStates(JobState.RUNNING, JobState.COMPLETED)
                            .limit(5_000))
                    .stream().map(row -> row.attemptedBy().getLast()).collect(Collectors.toSet())
                    .containsAll(childIds));
            clients.forEach(Runnel::start);

            long started = System.nanoTime();
            DrainCheck.awaitCompleted(reader, JOBS, DRAIN);
            long drainMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            Map<String, List<Long>> workedBy = new LinkedHashMap<>();
            for (Runnel client : clients) {
                client.close();
            }
            local.forEach((clientId, worker) -> workedBy.put(clientId, worker.ids()));
            for (DrainWorkerProcess child : children) {
                workedBy.put(child.clientId(), child.stopAndReadIds(CHILD_STOP));
            }
            Map<String, Integer> shares = new LinkedHashMap<>();
            workedBy.forEach((clientId, ids) -> shares.put(clientId, ids.size()));
            System.out.printf("PostgresConcurrencyTest: %d jobs drained in %d ms, by client %s%n", JOBS, drainMillis,
                    shares);

            // Each must have had a share, or this was not a drain by four clients.
            assertThat(shares.values()).as("jobs worked by each client").allMatch(n -> n > 0);
            Map<Long, String> worker = DrainCheck.assertWorkedExactlyOnce(inserted, workedBy);
            DrainCheck.assertStoredCompletedOnce(reader, worker);
        } catch (Throwable failure) {
            // Whatever failed, what the children said may explain it.
            for (DrainWorkerProcess child : children) {
                failure.addSuppressed(new AssertionError(child.describe()));
            }
            throw failure;
        } finally {
            for (Runnel client : clients) {
                client.close();
            }
            for (DrainWorkerProcess child : children) {
                child.close();
            }
        }
    }
}
