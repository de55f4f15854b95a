package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Audit;
import dev.runnel.AuditRow;
import dev.runnel.InsertOptions;
import dev.runnel.JobEvent;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobCancelRequestedParams;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.testkit.EventRecorder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Cancel, retry and delete: one job or by query, waiting or running, from any client. */
public abstract class AdminConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();

    private JobRow job(long id) {
        return driver.jobGet(id).orElseThrow();
    }

    @Test
    void theAuditLogListsEntriesNewestFirstToAnyClientAndPagesBackById() {
        Runnel writer = inserter();
        long first = writer.audit().record("ana", "queue.pause", "queue mailers", 1);
        clock.advance(Duration.ofSeconds(1));
        long second = writer.audit().record("bo", "job.cancel", "jobs 4, 5", 2);
        clock.advance(Duration.ofSeconds(1));
        long third = writer.audit().record("ana", "job.delete", "x".repeat(5_000), 7);
        assertThat(second).isGreaterThan(first);
        assertThat(third).isGreaterThan(second);

        Audit audit = inserter().audit();
        List<AuditRow> newest = audit.list(0, 2);
        assertThat(newest).extracting(AuditRow::id).containsExactly(third, second);
        AuditRow cut = newest.getFirst();
        assertThat(cut.at()).isEqualTo(T0.plusSeconds(2));
        assertThat(cut.actor()).isEqualTo("ana");
        assertThat(cut.action()).isEqualTo("job.delete");
        assertThat(cut.count()).isEqualTo(7);
        assertThat(cut.target()).hasSize(2_000).endsWith("x\u2026");
        assertThat(audit.list(second, 10)).containsExactly(new AuditRow(first, T0, "ana", "queue.pause", "queue mailers", 1));
        assertThat(audit.list(first, 10)).isEmpty();
        assertThatThrownBy(() -> audit.list(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> audit.list(0, Audit.MAX_LIST + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> audit.record(null, "job.cancel", "job 1", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(audit.list(0, Audit.MAX_LIST)).hasSize(3);
    }

    @Test
    void cancellingAJobThatIsNotRunningMakesItFinalAtOnce() {
        Runnel runnel = inserter();
        long available = runnel.insert(new TestArgs("a", 1)).id();
        long scheduled = runnel.insert(new TestArgs("s", 2), InsertOptions.builder().scheduledAt(T0.plusSeconds(60)).build()).id();
        JobRow cancelled = runnel.jobs().cancel(available);
        assertThat(cancelled.state()).isEqualTo(JobState.CANCELLED);
        assertThat(cancelled.finalizedAt()).contains(T0);
        assertThat(cancelled.lastError().orElseThrow().message()).isEqualTo("cancelled by an operator");
        assertThat(runnel.jobs().cancel(scheduled).state()).isEqualTo(JobState.CANCELLED);
        // Cancelling again changes nothing.
        clock.advance(Duration.ofMinutes(1));
        assertThat(runnel.jobs().cancel(available)).isEqualTo(cancelled);
        assertThatThrownBy(() -> runnel.jobs().cancel(987_654)).isInstanceOf(NotFoundException.class)
                .hasMessageContaining("no job 987654");
        assertThat(driver.jobClaim(new JobClaimParams("default", 10, clock.instant(), "c"))).isEmpty();
    }

    @Test
    void awaitFinalReturnsAJobOnceItEndsAndWaitsNoLongerThanItWasTold() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        started(client().queue("default", 2).worker(TestArgs.class, job -> release.await()));
        Runnel other = inserter();
        long id = other.insert(new TestArgs("slow", 1)).id();
        assertThatThrownBy(() -> other.jobs().awaitFinal(id, Duration.ofMillis(200)))
                .isInstanceOf(java.util.concurrent.TimeoutException.class).hasMessageContaining("job " + id + " is still");
        release.countDown();
        JobRow done = other.jobs().awaitFinal(id, Duration.ofSeconds(10)).orElseThrow();
        assertThat(done.state()).isEqualTo(JobState.COMPLETED);
        // A final job is returned at once; a job that no longer exists, as empty.
        long cancelled = other.insert(new TestArgs("gone", 2), InsertOptions.builder().queue("nobody").build()).id();
        other.jobs().cancel(cancelled);
        assertThat(other.jobs().awaitFinal(cancelled, Duration.ZERO).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        other.jobs().delete(cancelled);
        assertThat(other.jobs().awaitFinal(cancelled, Duration.ZERO)).isEmpty();
    }

    @Test
    void cancellingARunningJobFromAnotherClientInterruptsItAndItEndsCancelledThoughItThrows() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean sawCancel = new AtomicBoolean();
        started(client().queue("default", 2).listener(events).worker(TestArgs.class, job -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } finally {
                sawCancel.set(job.isCancelled());
            }
        }));
        Runnel operator = inserter();
        long id = operator.insert(new TestArgs("long", 1)).id();
        started.await();
        long begin = System.nanoTime();
        JobRow marked = operator.jobs().cancel(id);
        assertThat(marked.state()).isEqualTo(JobState.RUNNING);
        JobEvent event = events.await(id);
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(5));
        assertThat(event.type()).isEqualTo(JobEvent.Type.CANCELLED);
        assertThat(sawCancel).isTrue();
        JobRow row = job(id);
        assertThat(row.state()).isEqualTo(JobState.CANCELLED);
        assertThat(row.finalizedAt()).isPresent();
        assertThat(row.lastError().orElseThrow().message()).contains("cancelled by an operator")
                .contains("InterruptedException");
    }

    @Test
    void aWorkerThatCompletesDespiteTheCancelCompletesTheJob() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        started(client().queue("default", 2).listener(events).worker(TestArgs.class, job -> {
            started.countDown();
            while (!job.isCancelled()) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ignored) {
                    // finishes its work regardless
                }
            }
            cancelled.countDown();
        }));
        long id = inserter().insert(new TestArgs("stubborn", 1)).id();
        started.await();
        inserter().jobs().cancel(id);
        cancelled.await();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(job(id).state()).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void aFailureWrittenAfterACancelWasRequestedStillEndsTheJobCancelled() {
        long id = inserter().insert(new TestArgs("x", 1)).id();
        JobRow claimed = driver.jobClaim(new JobClaimParams("default", 1, T0, "c")).getFirst();
        clock.advance(Duration.ofSeconds(5));
        assertThat(driver.jobCancelMany(new JobCancelParams(new long[] {id}, clock.instant(), "stop it"))).containsExactly(id);
        assertThat(job(id).state()).isEqualTo(JobState.RUNNING);
        assertThat(driver.jobCancelRequested(new JobCancelRequestedParams(new long[] {id, 999}))).containsExactly(id);
        // The worker had failed before its client heard of the cancel: it must not be retried.
        driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, JobState.RETRYABLE, T0.plusSeconds(60), null,
                "{\"attempt\":1,\"at\":\"" + T0 + "\",\"error\":\"boom\",\"trace\":\"\"}", 0)));
        JobRow row = job(id);
        assertThat(row.state()).isEqualTo(JobState.CANCELLED);
        assertThat(row.finalizedAt()).contains(T0.plusSeconds(5));
        assertThat(row.lastError().orElseThrow().message()).isEqualTo("boom");
    }

    @Test
    void retryMakesAFinishedJobAvailableWithItsAttemptsKept() {
        Runnel runnel = started(client().queue("default", 2).listener(events).worker(TestArgs.class, job -> {
            if (job.args().value() == 1 && job.attempt() == 1) {
                throw new IllegalStateException("first time");
            }
        }));
        long id = runnel.insert(new TestArgs("once", 1), InsertOptions.builder().maxAttempts(1).build()).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.DISCARDED);
        JobRow retried = runnel.jobs().retry(id);
        assertThat(retried.state()).isIn(JobState.AVAILABLE, JobState.RUNNING, JobState.COMPLETED);
        assertThat(events.await(id, 2).type()).isEqualTo(JobEvent.Type.COMPLETED);
        JobRow row = job(id);
        assertThat(row.attempt()).isEqualTo(2);
        assertThat(row.maxAttempts()).isEqualTo(2);
        assertThat(row.errors()).hasSize(1);
        assertThatThrownBy(() -> runnel.jobs().retry(424_242)).isInstanceOf(NotFoundException.class);
    }

    @Test
    void aRunningJobCanBeNeitherRetriedNorDeleted() {
        long id = inserter().insert(new TestArgs("busy", 1)).id();
        driver.jobClaim(new JobClaimParams("default", 1, T0, "c"));
        Runnel operator = inserter();
        assertThatThrownBy(() -> operator.jobs().retry(id)).isInstanceOf(RunnelException.class)
                .hasMessageContaining("job " + id + " is running").hasMessageContaining("cancel it");
        assertThatThrownBy(() -> operator.jobs().delete(id)).isInstanceOf(RunnelException.class)
                .hasMessageContaining("cannot be deleted");
        assertThat(job(id).state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void deleteRemovesAJobThatIsNotRunning() {
        Runnel runnel = inserter();
        long id = runnel.insert(new TestArgs("gone", 1)).id();
        runnel.jobs().delete(id);
        assertThat(runnel.jobGet(id)).isEmpty();
        assertThatThrownBy(() -> runnel.jobs().delete(id)).isInstanceOf(NotFoundException.class);
    }

    @Test
    void bulkFormsApplyToEveryJobAQueryMatchesAcrossPages() {
        Runnel runnel = inserter();
        for (int i = 0; i < 25; i++) {
            runnel.insert(new TestArgs("bulk", i), InsertOptions.builder().queue("bulk").build());
        }
        long other = runnel.insert(new TestArgs("other", 0), InsertOptions.builder().queue("other").build()).id();
        JobQuery bulk = JobQuery.all().queue("bulk").limit(10);
        assertThat(runnel.jobs().cancel(bulk)).isEqualTo(25);
        assertThat(runnel.jobList(JobQuery.inStates(JobState.CANCELLED).limit(100))).hasSize(25);
        assertThat(runnel.jobs().retry(JobQuery.inStates(JobState.CANCELLED).limit(7))).isEqualTo(25);
        assertThat(runnel.jobList(JobQuery.inStates(JobState.AVAILABLE).queue("bulk").limit(100))).hasSize(25)
                .allSatisfy(j -> assertThat(j.finalizedAt()).isEmpty());
        assertThat(runnel.jobs().delete(bulk)).isEqualTo(25);
        assertThat(runnel.jobList(JobQuery.all())).extracting(JobRow::id).containsExactly(other);
    }

    @Test
    void bulkFormsByKindTagsArgsIdsAndCreationTime() {
        Runnel runnel = inserter();
        long[] ids = new long[12];
        for (int i = 0; i < ids.length; i++) {
            InsertOptions options = InsertOptions.builder().queue(i < 6 ? "left" : "right")
                    .tags(i % 2 == 0 ? List.of("red") : List.of("red", "blue")).build();
            ids[i] = (i % 3 == 0 ? runnel.insert(new OrphanArgs("o" + i), options) : runnel.insert(new TestArgs("t", i), options)).id();
            clock.advance(Duration.ofSeconds(1));
        }
        // Kind and tags: the test jobs carrying blue (1, 5, 7, 11).
        assertThat(runnel.jobs().cancel(JobQuery.all().kinds("test_job").tags("blue", "red").limit(2))).isEqualTo(4);
        assertThat(ids(runnel, JobQuery.inStates(JobState.CANCELLED))).containsExactly(ids[1], ids[5], ids[7], ids[11]);
        // Args: of those, the one with value 7.
        assertThat(runnel.jobs().retry(JobQuery.inStates(JobState.CANCELLED).args("{\"value\": 7}"))).isEqualTo(1);
        assertThat(ids(runnel, JobQuery.inStates(JobState.CANCELLED))).containsExactly(ids[1], ids[5], ids[11]);
        // Creation time and queue: created in seconds 2 to 7 in queue right (6 and 7).
        assertThat(runnel.jobs().delete(JobQuery.all().queue("right").createdBetween(T0.plusSeconds(2),
                T0.plusSeconds(8)))).isEqualTo(2);
        assertThat(driver.jobGet(ids[6])).isEmpty();
        assertThat(driver.jobGet(ids[7])).isEmpty();
        // Ids, newest first, with a cursor: a bulk change applies to every match, whatever the cursor.
        assertThat(runnel.jobs().cancel(JobQuery.all().idRange(ids[8], ids[10]).newestFirst().afterId(ids[9])
                .limit(1))).isEqualTo(3);
        assertThat(ids(runnel, JobQuery.inStates(JobState.CANCELLED))).containsExactly(ids[1], ids[5], ids[8], ids[9],
                ids[10], ids[11]);
        // Nothing matches: nothing changes.
        assertThat(runnel.jobs().delete(JobQuery.all().kinds("no_such_kind"))).isZero();
        assertThat(runnel.jobList(JobQuery.all())).hasSize(10);
    }

    private static List<Long> ids(Runnel runnel, JobQuery query) {
        return runnel.jobList(query.limit(JobQuery.MAX_LIMIT)).stream().map(JobRow::id).toList();
    }
}
