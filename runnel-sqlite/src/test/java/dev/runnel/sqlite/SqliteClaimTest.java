package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Times;
import dev.runnel.testkit.conformance.ClaimConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SqliteClaimTest extends ClaimConformance {
    private Path file;

    @Override
    protected Driver newDriver(Path dir) {
        file = dir.resolve("jobs.db");
        return SqliteDriver.open(file);
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("jobs.db"));
    }

    /** Connections of this test's file of their own, as a second driver on it would hold. */
    private SqliteConnections connections() {
        return new SqliteConnections("jdbc:sqlite:" + file, file.toString(), Optional.of(file), 1, Duration.ofSeconds(5),
                SqliteBusyWait.FAIR);
    }

    private void insert(String queue, int count) {
        List<JobInsertParams> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(new JobInsertParams("kind_a", "{\"n\":" + i + "}", queue, 1, JobState.AVAILABLE,
                    T0.minusSeconds(60), T0.minusSeconds(60), 25, List.of(), "{}", null, 0));
        }
        driver.jobInsertMany(jobs);
    }

    @Test
    void aBigClaimInterruptedBeforeItsRowsAreReadReadsThemOnTheWriter() {
        int n = SqliteJobs.READ_ROWS_AFTER;
        insert("q", 2 * n);
        assertThat(driver.jobClaim(new JobClaimParams("q", n, T0, "client-a"))).hasSize(n);
        // That claim was big, so the next one takes its jobs under the writer lock and reads them
        // after. An interrupted thread cannot wait for a reader connection; the writer's serves.
        Thread.currentThread().interrupt();
        List<JobRow> claimed;
        try {
            claimed = driver.jobClaim(new JobClaimParams("q", n, T0.plusSeconds(1), "client-a"));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(claimed).hasSize(n).allSatisfy(job -> {
            assertThat(job.state()).isEqualTo(JobState.RUNNING);
            assertThat(job.attemptedAt()).contains(T0.plusSeconds(1));
        });
        assertThat(driver.jobClaim(new JobClaimParams("q", n, T0.plusSeconds(2), "client-a"))).isEmpty();
    }

    @Test
    void theJobsOfAClaimWhoseRowsCannotBeReadAreFoundByTheClaimsRecovery() {
        insert("q", 3);
        JobClaimParams claim = new JobClaimParams("q", 3, T0, "client-a");
        long[] ids = driver.jobClaim(claim).stream().mapToLong(JobRow::id).toArray();
        SqliteConnections connections = connections();
        SqliteJobs jobs = new SqliteJobs(connections);
        connections.close();
        // Not an error that says nothing was applied (as the producer tells them apart), so the
        // producer looks for the claim's jobs before it claims again.
        assertThatThrownBy(() -> jobs.readClaimed(claim, Times.toMicros(T0), ids))
                .isExactlyInstanceOf(RunnelException.class)
                .hasMessageContaining("claimed 3 jobs of queue q but could not read them");
        assertThat(driver.jobClaimRecover(claim)).extracting(JobRow::id).containsExactlyInAnyOrder(
                ids[0], ids[1], ids[2]);
    }

    @Test
    void theRowsReadAfterABigClaimAreItsJobsStillRunningInItsAttemptOnly() {
        insert("q", 5);
        // One job had an attempt before, by another client: its list of clients is read as JSON.
        JobRow before = driver.jobClaim(new JobClaimParams("q", 1, T0.minusSeconds(10), "client-z")).getFirst();
        driver.jobSetStateMany(List.of(JobSetStateParams.of(before, JobState.AVAILABLE, T0.minusSeconds(10), null, null, 0)));
        JobClaimParams claim = new JobClaimParams("q", 5, T0, "client-a");
        List<JobRow> claimed = driver.jobClaim(claim);
        assertThat(claimed).hasSize(5);
        JobRow again = claimed.stream().filter(j -> j.id() == before.id()).findFirst().orElseThrow();
        assertThat(again.attemptedBy()).containsExactly("client-z", "client-a");
        List<JobRow> first = claimed.stream().filter(j -> j.id() != before.id()).toList();
        // Between the claim and the read: one job completes; one is retried and claimed again by
        // another client at the same instant; the rest still run in the claim's attempt. One id
        // is of no job at all.
        driver.jobCompleteMany(JobCompleteManyParams.of(List.of(first.get(0)), T0.plusMillis(1)));
        driver.jobSetStateMany(List.of(JobSetStateParams.of(first.get(1), JobState.AVAILABLE, T0, null, null, 0)));
        assertThat(driver.jobClaim(new JobClaimParams("q", 5, T0, "client-b")))
                .extracting(JobRow::id).containsExactly(first.get(1).id());
        long[] ids = LongStream.concat(claimed.stream().mapToLong(JobRow::id), LongStream.of(999_999)).toArray();
        try (SqliteConnections connections = connections()) {
            List<JobRow> read = new SqliteJobs(connections).readClaimed(claim, Times.toMicros(T0), ids);
            assertThat(read).containsExactlyInAnyOrder(first.get(2), first.get(3), again);
        }
    }
}
