package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Real network faults between working clients and Postgres, through a TCP proxy: the database
 * unreachable for ten seconds, connections stalled (half-open: bytes swallowed, no reset), and
 * every connection dropped at once as a restarting server drops them. Through all of it every
 * job must be worked exactly once and stored completed on its first attempt: no claim whose reply
 * was lost is dropped, no write is lost or repeated onto a later attempt, and no live client is
 * taken for dead once the database is back.
 */
class PostgresFaultTest {
    private static final int JOBS = 4_000;
    /** With 2 x 10 slots, about a second of work in all: the faults, not the work, take the time. */
    private static final Duration WORK = Duration.ofMillis(5);
    private static final int WORKERS = 10;
    private static final int CLIENTS = 2;
    private static final String QUEUE = "faulty";
    /** Short, so that a stalled connection is given up quickly; the default is 30 s. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration DRAIN = Duration.ofSeconds(90);

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    /** A fault, injected once the drain has reached some share of its jobs. */
    private interface Fault {
        void inject(TcpProxy proxy) throws Exception;
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aDrainSurvivesTheDatabaseUnreachableForTenSecondsAndAStalledNetwork() throws Exception {
        drainThrough(Map.of(
                0.25, proxy -> proxy.outage(Duration.ofSeconds(10)),
                0.6, proxy -> {
                    proxy.stall();
                    Thread.sleep(3 * SOCKET_TIMEOUT.toMillis() / 2);
                    proxy.unstall();
                }));
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aDrainSurvivesEveryConnectionDroppedThreeTimesAsByARestartingServer() throws Exception {
        // A restart, as clients see it: every connection reset at once, and new ones refused until
        // the server is up again.
        Fault restart = proxy -> proxy.outage(Duration.ofSeconds(2));
        drainThrough(Map.of(0.2, restart, 0.5, restart, 0.8, restart));
    }

    private void drainThrough(Map<Double, Fault> faults) throws Exception {
        String schema = db.create();
        Map<String, DrainWorker> workers = new LinkedHashMap<>();
        List<FailureCountingDriver> drivers = new ArrayList<>();
        List<Runnel> clients = new ArrayList<>();
        PostgresUrl direct = PostgresUrl.parse(PostgresTestSchema.URL);
        try (TcpProxy proxy = TcpProxy.start(direct.host(), direct.port());
                Runnel reader = Runnel.builder().driver(PostgresTestSchema.driver(schema)).autoMigrate(true).build()) {
            Set<Long> inserted = DrainCheck.insert(reader, QUEUE, JOBS);
            String url = "postgres://" + direct.user() + "@127.0.0.1:" + proxy.port() + "/" + direct.database();
            for (int i = 1; i <= CLIENTS; i++) {
                String clientId = "faulty-" + i;
                DrainWorker worker = new DrainWorker(WORK);
                FailureCountingDriver driver = new FailureCountingDriver(PostgresDriver.builder().url(url).schema(schema)
                        .maxPoolSize(4).connectTimeout(SOCKET_TIMEOUT).socketTimeout(SOCKET_TIMEOUT).build());
                workers.put(clientId, worker);
                drivers.add(driver);
                clients.add(DrainCheck.client(driver, QUEUE, WORKERS, worker, clientId));
            }
            clients.forEach(Runnel::start);

            List<String> log = new ArrayList<>();
            for (double share : faults.keySet().stream().sorted().toList()) {
                long due = (long) (JOBS * share);
                Await.until(due + " jobs worked", DRAIN, () -> DrainCheck.worked(workers) >= due);
                long before = DrainCheck.worked(workers);
                faults.get(share).inject(proxy);
                log.add("at " + before + " jobs worked (connections dropped so far " + proxy.dropped() + ", refused "
                        + proxy.refused() + ")");
            }
            DrainCheck.awaitCompleted(reader, JOBS, DRAIN);
            for (Runnel client : clients) {
                client.close();
            }
            int failedClaims = drivers.stream().mapToInt(FailureCountingDriver::failedClaims).sum();
            int failedWrites = drivers.stream().mapToInt(FailureCountingDriver::failedWrites).sum();
            System.out.printf("PostgresFaultTest: %s; %d claims and %d outcome writes failed and were retried%n",
                    log, failedClaims, failedWrites);

            // The faults hit the runtime's own operations, not idle spares.
            assertThat(failedClaims + failedWrites).as("operations that hit a fault").isPositive();
            assertThat(proxy.dropped() + proxy.refused()).as("connections the proxy broke or refused").isPositive();
            assertThat(reader.jobCounts()).as("counts by state after the drain")
                    .containsExactly(new JobCount(QUEUE, JobState.COMPLETED, JOBS));
            Map<String, List<Long>> workedBy = new LinkedHashMap<>();
            workers.forEach((clientId, worker) -> workedBy.put(clientId, worker.ids()));
            Map<Long, String> worker = DrainCheck.assertWorkedExactlyOnce(inserted, workedBy);
            DrainCheck.assertStoredCompletedOnce(reader, worker);
            // Nobody was taken for dead: the rescuer waits out a heartbeat timeout after an outage.
            assertThat(reader.clients()).allSatisfy(c -> assertThat(c.stoppedAt()).isPresent());
        } finally {
            for (Runnel client : clients) {
                client.close();
            }
        }
    }
}
