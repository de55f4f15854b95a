package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobDeleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobLink;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.Links;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cleaner on linked jobs: it takes their links with them in its transaction, releases what a
 * job it deletes still held, and removes the workflows, batches and sequences left with no job,
 * tasks deleted by hand included.
 */
class PostgresLinkCleanTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant LATER = T0.plusSeconds(3600);

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    private PostgresDriver driver;

    @BeforeEach
    void setUp() {
        driver = db.newDriver();
        new Migrator(driver).up();
        assertThat(driver.leaderAttemptElect(new LeaderElectParams("leader", T0, T0.plusSeconds(7200)))).isTrue();
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    @Test
    void aDiscardedJobHoldingItsSequenceIsCleanedAndTheNextJobRuns() throws SQLException {
        JobLink inSequence = new JobLink(null, List.of(), Links.CANCEL, "account-7", Links.HOLD, false);
        LinkInserted inserted = driver.linkInsert(new LinkInsertParams(null, null, 0, null, 0,
                List.of(job("first"), job("second")), List.of(inSequence, inSequence), T0));
        long second = inserted.jobs().get(1).id();
        finish(claim("first"), JobState.DISCARDED);
        assertThat(state(second)).isEqualTo(JobState.PENDING);

        assertThat(clean(JobState.DISCARDED)).isEqualTo(1);
        assertThat(state(second)).as("released by the deletion of the job that held it").isEqualTo(JobState.AVAILABLE);
        assertThat(rows("runnel_sequence")).as("its last job is still there").isEqualTo(1);

        finish(claim("second"), JobState.COMPLETED);
        assertThat(clean(JobState.COMPLETED)).isEqualTo(1);
        assertThat(rows("runnel_link")).isZero();
        assertThat(rows("runnel_link_dep")).isZero();
        assertThat(rows("runnel_sequence")).isZero();
        // A new job of the sequence waits for nothing.
        long third = driver.linkInsert(new LinkInsertParams(null, null, 0, null, 0, List.of(job("third")),
                List.of(inSequence), T0)).jobs().getFirst().id();
        assertThat(state(third)).isEqualTo(JobState.AVAILABLE);
    }

    @Test
    void aWorkflowAndABatchWithJobsDeletedByHandGoWithTheirLastJobs() throws SQLException {
        LinkInserted wf = driver.linkInsert(new LinkInsertParams(null, "wf", 0, null, 0,
                List.of(job("a"), job("b"), job("c")),
                List.of(task("a"), task("b", "a"), task("c")), T0));
        LinkInserted batch = driver.linkInsert(new LinkInsertParams(null, null, 0,
                new LinkInsertParams.NewBatch("batch", "{}"), 0, List.of(job("x"), job("y")),
                List.of(JobLink.BATCH, JobLink.BATCH), T0));
        // Deleted by hand: kept as deleted tasks and counted as deleted in the batch.
        driver.jobDeleteMany(new JobDeleteManyParams(new long[] {wf.jobs().get(0).id(), batch.jobs().get(0).id()}, T0));
        assertThat(state(wf.jobs().get(1).id())).isEqualTo(JobState.CANCELLED);
        assertThat(driver.workflowGet(wf.workflowId()).orElseThrow().deletedTasks()).isEqualTo(1);
        assertThat(driver.batchGet(batch.batchId()).orElseThrow().deleted()).isEqualTo(1);
        finish(claim("y"), JobState.COMPLETED);

        assertThat(clean(JobState.CANCELLED)).isEqualTo(1);
        assertThat(driver.workflowGet(wf.workflowId())).as("task c is left").isPresent();
        assertThat(clean(JobState.COMPLETED)).isEqualTo(1);
        assertThat(driver.batchGet(batch.batchId())).isEmpty();
        finish(claim("c"), JobState.COMPLETED);
        assertThat(clean(JobState.COMPLETED)).isEqualTo(1);
        assertThat(driver.workflowGet(wf.workflowId())).isEmpty();
        assertThat(driver.workflowTasks(wf.workflowId())).isEmpty();
        assertThat(rows("runnel_link")).isZero();
        assertThat(rows("runnel_link_dep")).isZero();
        assertThat(rows("runnel_workflow")).isZero();
        assertThat(rows("runnel_batch")).isZero();
    }

    @Test
    void cleaningPlainJobsLeavesTheLinksOfOthersAlone() throws SQLException {
        LinkInserted wf = driver.linkInsert(new LinkInsertParams(null, "wf", 0, null, 0, List.of(job("a"), job("b")),
                List.of(task("a"), task("b", "a")), T0));
        driver.jobInsertMany(List.of(new JobInsertParams("plain", "{}", "plain", 1, JobState.AVAILABLE, T0, T0, 25,
                List.of(), "{}")));
        JobRow plain = driver.jobClaim(new JobClaimParams("plain", 1, T0, "worker")).getFirst();
        finish(plain, JobState.COMPLETED);
        assertThat(clean(JobState.COMPLETED)).isEqualTo(1);
        assertThat(rows("runnel_link")).isEqualTo(2);
        assertThat(driver.workflowTasks(wf.workflowId())).hasSize(2);
    }

    private static JobInsertParams job(String queue) {
        return new JobInsertParams("cleaned", "{}", queue, 1, JobState.AVAILABLE, T0, T0, 25, List.of(),
                "{\"" + Links.METADATA_KEY + "\":true}");
    }

    private static JobLink task(String name, String... after) {
        return new JobLink(name, List.of(after), Links.CANCEL, null, Links.HOLD, false);
    }

    private JobRow claim(String queue) {
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams(queue, 1, T0, "worker"));
        assertThat(claimed).hasSize(1);
        return claimed.getFirst();
    }

    private void finish(JobRow job, JobState state) {
        assertThat(driver.jobSetStateMany(List.of(JobSetStateParams.of(job, state, null, T0.plusSeconds(1), null, 0))))
                .containsExactly(job.id());
    }

    private int clean(JobState state) {
        return driver.jobDeleteFinalized(new JobDeleteFinalizedParams(new Lease("leader", LATER), state, LATER, 100));
    }

    private JobState state(long id) {
        return driver.jobGet(id).orElseThrow().state();
    }

    private int rows(String table) throws SQLException {
        try (var c = PostgresTestSchema.admin(); var st = c.createStatement();
                var rs = st.executeQuery("SELECT count(*) FROM " + db.current() + "." + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
