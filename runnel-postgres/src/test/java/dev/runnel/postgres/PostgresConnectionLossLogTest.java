package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobQuery;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every backend of a driver's pool (and of its listener) is terminated, as a server restart
 * would: the driver logs one line that it lost the connection and one that it is back, and the
 * pool logs nothing of the connections it found dead. The log is slf4j-simple's, written to
 * {@code System.err} as each line is logged, and read here from there.
 */
class PostgresConnectionLossLogTest {
    private static final int POOL = 4;

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    void anIdlePoolWhoseConnectionsWereAllTerminatedLogsTheLossOnceAndThePoolNothing() throws Exception {
        String applicationName = "runnel-loss-log-" + db.create();
        try (Runnel runnel = Runnel.builder().driver(driver(applicationName)).autoMigrate(true).build()) {
            runnel.jobList(JobQuery.all());
            // Idle for over a second, so that the pool checks each connection before lending it.
            Await.until("the pool full and idle", Duration.ofSeconds(20),
                    () -> idleBackends(applicationName) == POOL);
            List<String> log = logOf(() -> {
                assertThat(Backends.terminate(applicationName).pool()).hasSize(POOL);
                for (int i = 0; i < 3; i++) {
                    assertThat(runnel.jobList(JobQuery.all())).isEmpty();
                }
                return null;
            });
            assertOneLossAndNoPoolWarnings(log);
        }
    }

    @Test
    void aWorkingClientWhosePoolAndListenerWereTerminatedLogsTheLossOnce() throws Exception {
        String applicationName = "runnel-loss-log-" + db.create();
        try (Runnel runnel = Runnel.builder().driver(driver(applicationName)).autoMigrate(true)
                .queue("default", 2).worker(DrainJob.class, job -> {}).heartbeatInterval(Duration.ofMillis(200))
                .heartbeatTimeout(Duration.ofSeconds(2)).build()) {
            runnel.start();
            Await.until("the listener listening", Duration.ofSeconds(20),
                    () -> listening(applicationName, Set.of()));
            List<String> log = logOf(() -> {
                Backends.Terminated gone = Backends.terminate(applicationName);
                assertThat(gone.listeners()).hasSize(1);
                Await.until("the listener listening again", Duration.ofSeconds(20),
                        () -> listening(applicationName, gone.all()));
                long id = runnel.insert(new DrainJob(1)).id();
                runnel.jobs().awaitFinal(id, Duration.ofSeconds(20)).orElseThrow();
                return null;
            });
            assertOneLossAndNoPoolWarnings(log);
        }
    }

    private static void assertOneLossAndNoPoolWarnings(List<String> log) {
        assertThat(log).filteredOn(line -> line.contains("lost the connection to the database")).as("%s", log)
                .singleElement().asString().contains("reconnecting");
        assertThat(log).filteredOn(line -> line.contains("reconnected after")).as("%s", log).hasSize(1);
        assertThat(log).filteredOn(line -> line.contains("com.zaxxer.hikari")).as("%s", log).isEmpty();
        assertThat(log).filteredOn(line -> line.contains("WARN")).as("%s", log).hasSize(1);
    }

    private static PostgresDriver driver(String applicationName) {
        String url = PostgresTestSchema.URL + (PostgresTestSchema.URL.contains("?") ? "&" : "?")
                + "ApplicationName=" + applicationName;
        return PostgresDriver.builder().url(url).schema(applicationName.substring("runnel-loss-log-".length()))
                .maxPoolSize(POOL).build();
    }

    /** The lines logged while {@code action} ran. */
    private static List<String> logOf(Callable<Void> action) throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.call();
        } finally {
            System.setErr(err);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        err.print(text);
        return text.lines().toList();
    }

    private static boolean listening(String applicationName, Set<Integer> gone) {
        try {
            return !Backends.listenersExcept(applicationName, gone).isEmpty();
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static int idleBackends(String applicationName) {
        try (Connection c = PostgresTestSchema.admin(); PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = ? AND state = 'idle'"
                        + " AND now() - state_change > interval '1 second'")) {
            ps.setString(1, applicationName);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
