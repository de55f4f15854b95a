package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
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
 * Every backend of two working clients, pool and listener alike, is terminated twice in the middle
 * of a drain. Running jobs must finish, failed outcome writes must be retried until they land, the
 * pool must replace its dead connections and the listeners must reconnect, and still every job must
 * be worked exactly once and completed on its first attempt.
 */
class PostgresConnectionLossTest {
    private static final int JOBS = 5_000;
    /** Long enough that the drain lasts a few seconds, so the terminations land in its middle. */
    private static final Duration WORK = Duration.ofMillis(5);
    private static final int WORKERS = 5;
    private static final int CLIENTS = 2;
    private static final String QUEUE = "lossy";
    /** When to terminate, as the share of jobs worked so far. */
    private static final double[] TERMINATE_AT = {0.2, 0.6};
    private static final Duration DRAIN = Duration.ofSeconds(60);
    /** The listener retries within about 100 ms at first; this is for a loaded machine. */
    private static final Duration RECONNECT = Duration.ofSeconds(20);

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aDrainSurvivesItsConnectionsBeingTerminated() throws Exception {
        String schema = db.create();
        // A name of this test's own, so that only its clients' backends are terminated.
        String applicationName = "runnel-loss-" + schema;
        String url = PostgresTestSchema.URL + (PostgresTestSchema.URL.contains("?") ? "&" : "?")
                + "ApplicationName=" + applicationName;
        Map<String, DrainWorker> workers = new LinkedHashMap<>();
        List<FailureCountingDriver> drivers = new ArrayList<>();
        List<Runnel> clients = new ArrayList<>();
        try (Runnel reader = Runnel.builder().driver(PostgresTestSchema.driver(schema)).autoMigrate(true).build()) {
            Set<Long> inserted = DrainCheck.insert(reader, QUEUE, JOBS);
            for (int i = 1; i <= CLIENTS; i++) {
                String clientId = "lossy-" + i;
                DrainWorker worker = new DrainWorker(WORK);
                FailureCountingDriver driver = new FailureCountingDriver(
                        PostgresDriver.builder().url(url).schema(schema).maxPoolSize(4).build());
                workers.put(clientId, worker);
                drivers.add(driver);
                clients.add(DrainCheck.client(driver, QUEUE, WORKERS, worker, clientId));
            }
            clients.forEach(Runnel::start);

            List<String> rounds = new ArrayList<>();
            PrintStream err = System.err;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                for (double share : TERMINATE_AT) {
                    long due = (long) (JOBS * share);
                    Await.until(due + " jobs worked", DRAIN, () -> DrainCheck.worked(workers) >= due);
                    rounds.add(terminateMidDrain(schema, applicationName));
                }
                DrainCheck.awaitCompleted(reader, JOBS, DRAIN);
            } finally {
                System.setErr(err);
                err.print(captured.toString(StandardCharsets.UTF_8));
            }
            // The pool says nothing of the connections it lost (no warning, no stack trace per
            // connection): each client says once per termination that it lost the database.
            List<String> log = captured.toString(StandardCharsets.UTF_8).lines().toList();
            assertThat(log).filteredOn(line -> line.contains("com.zaxxer.hikari")).as("the pool's log").isEmpty();
            assertThat(log).filteredOn(line -> line.contains("lost the connection to the database"))
                    .as("lines on losing the database").hasSizeBetween(CLIENTS, CLIENTS * TERMINATE_AT.length);
            for (Runnel client : clients) {
                client.close();
            }
            int failedClaims = drivers.stream().mapToInt(FailureCountingDriver::failedClaims).sum();
            int failedWrites = drivers.stream().mapToInt(FailureCountingDriver::failedWrites).sum();
            System.out.printf("PostgresConnectionLossTest: %s; %d claims and %d outcome writes failed and were retried%n",
                    rounds, failedClaims, failedWrites);

            // The terminations broke connections the runtime was using, not idle spares.
            assertThat(failedClaims + failedWrites).as("operations that hit a terminated connection").isPositive();
            // After the first failure the pool retires all its connections, so each producer and
            // each completer fails at most once per termination: its retry gets a fresh connection,
            // not the next of the pool's dead ones.
            int once = TERMINATE_AT.length * CLIENTS;
            assertThat(failedClaims).as("failed claims, at most one per producer and termination").isLessThanOrEqualTo(once);
            assertThat(failedWrites).as("failed outcome writes, at most one per completer and termination")
                    .isLessThanOrEqualTo(once);
            assertThat(reader.jobCounts()).as("counts by state after the drain")
                    .containsExactly(new JobCount(QUEUE, JobState.COMPLETED, JOBS));
            Map<String, List<Long>> workedBy = new LinkedHashMap<>();
            workers.forEach((clientId, worker) -> workedBy.put(clientId, worker.ids()));
            Map<Long, String> worker = DrainCheck.assertWorkedExactlyOnce(inserted, workedBy);
            DrainCheck.assertStoredCompletedOnce(reader, worker);
        } finally {
            for (Runnel client : clients) {
                client.close();
            }
        }
    }

    /**
     * Terminates every backend of the clients while jobs are running, then waits for both listeners
     * to be back on new backends; returns what it did, for the log.
     */
    private static String terminateMidDrain(String schema, String applicationName) throws SQLException {
        long running = Backends.runningJobs(schema);
        Backends.Terminated gone = Backends.terminate(applicationName);
        assertThat(running).as("jobs running when the connections were terminated").isPositive();
        assertThat(gone.listeners()).as("listener backends terminated").hasSize(CLIENTS);
        assertThat(gone.pool().size()).as("pool backends terminated").isGreaterThanOrEqualTo(CLIENTS);
        Await.until("both listeners listening again", RECONNECT, () -> {
            try {
                return Backends.listenersExcept(applicationName, gone.all()).size() == CLIENTS;
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        return "terminated " + gone.pool().size() + " pool and " + gone.listeners().size() + " listener backends with "
                + running + " jobs running";
    }
}
