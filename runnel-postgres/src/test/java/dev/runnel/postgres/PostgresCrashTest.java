package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.testkit.conformance.DriverConformance.TestArgs;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An at-least-once claim commits without waiting for the disk (its statement sets
 * {@code synchronous_commit} off for its own transaction): a crash may undo it, which leaves the
 * job available at its old attempt, to be claimed again, as at least once allows. Everything
 * else commits as the server is set: an insert, a completion, and with a completion every claim
 * written before it. These tests crash a server of their own and count every job afterwards.
 */
class PostgresCrashTest {
    private static final String QUEUE = "crash";
    private ScratchPostgres server;
    private PostgresDriver driver;

    @BeforeEach
    void startServer() throws Exception {
        server = ScratchPostgres.create();
        driver = open();
        new Migrator(driver).up();
    }

    @AfterEach
    void stopServer() {
        if (driver != null) {
            driver.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aCrashAfterClaimsLosesNoJobAndKeepsEveryCompletion() throws Exception {
        Runnel inserter = Runnel.builder().driver(driver).build();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(inserter.insert(new TestArgs("job", i), InsertOptions.builder().queue(QUEUE).build()).id());
        }
        Instant now = Instant.now();
        List<JobRow> first = driver.jobClaim(new JobClaimParams(QUEUE, 40, now, "client-a"));
        List<JobRow> done = first.subList(0, 10);
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(done, now))).hasSize(10);
        List<JobRow> second = driver.jobClaim(new JobClaimParams(QUEUE, 60, now, "client-a"));
        assertThat(first).hasSize(40);
        assertThat(second).hasSize(60);

        driver.close();
        driver = null;
        server.crash();
        server.start();
        driver = open();

        Set<Long> completed = idsOf(done);
        Set<Long> claimedBeforeTheCompletion = idsOf(first.subList(10, 40));
        int lostClaims = 0;
        for (long id : ids) {
            JobRow row = driver.jobGet(id).orElseThrow(() -> new AssertionError("job " + id + " was lost"));
            if (completed.contains(id)) {
                // An acknowledged completion survives the crash.
                assertThat(row.state()).as("job %d", id).isEqualTo(JobState.COMPLETED);
            } else if (claimedBeforeTheCompletion.contains(id)) {
                // Written before the completion, whose commit waited for the disk: it stays claimed.
                assertThat(row.state()).as("job %d", id).isEqualTo(JobState.RUNNING);
                assertThat(row.attempt()).isEqualTo(1);
            } else {
                // Claimed last: either the crash undid the claim (the job waits at its old attempt,
                // never counted as tried) or the claim had reached the disk.
                assertThat(row.state()).as("job %d", id).isIn(JobState.AVAILABLE, JobState.RUNNING);
                assertThat(row.attempt()).isEqualTo(row.state() == JobState.AVAILABLE ? 0 : 1);
                lostClaims += row.state() == JobState.AVAILABLE ? 1 : 0;
            }
        }
        // Whatever the crash undid is claimed again, and only that.
        List<JobRow> again = driver.jobClaim(new JobClaimParams(QUEUE, 100, Instant.now(), "client-b"));
        assertThat(again).hasSize(lostClaims);
        assertThat(again).allSatisfy(job -> assertThat(job.attempt()).isEqualTo(1));
        assertThat(idsOf(again)).doesNotContainAnyElementsOf(completed).doesNotContainAnyElementsOf(claimedBeforeTheCompletion);
    }

    @Test
    void aClaimLeavesItsConnectionCommittingAsTheServerIsSet() throws Exception {
        Runnel inserter = Runnel.builder().driver(driver).build();
        inserter.insert(new TestArgs("job", 1), InsertOptions.builder().queue(QUEUE).build());
        assertThat(driver.jobClaim(new JobClaimParams(QUEUE, 10, Instant.now(), "client-a"))).hasSize(1);
        // The pool holds one connection: the one the claim ran on.
        try (Connection c = driver.dataSource().getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW synchronous_commit")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("on");
        }
    }

    private PostgresDriver open() {
        return PostgresDriver.builder().url(server.url()).maxPoolSize(1).build();
    }

    private static Set<Long> idsOf(List<JobRow> jobs) {
        Set<Long> ids = new HashSet<>();
        jobs.forEach(j -> ids.add(j.id()));
        return ids;
    }
}
