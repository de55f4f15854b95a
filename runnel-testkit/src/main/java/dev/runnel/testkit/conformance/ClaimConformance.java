package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Times;
import dev.runnel.JobError;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Claiming, completing and rescheduling at the driver level, with time passed in. */
public abstract class ClaimConformance extends DriverConformance {

    private List<JobRow> claim(String queue, int max) {
        return driver.jobClaim(new JobClaimParams(queue, max, clock.instant(), "client-a"));
    }

    private long insert(Runnel runnel, String name, InsertOptions options) {
        return runnel.insert(new DriverConformance.TestArgs(name, 0), options);
    }

    @Test
    void claimsByPriorityThenScheduledTimeThenId() {
        Runnel runnel = inserter();
        long low = insert(runnel, "low", InsertOptions.builder().priority(3).build());
        long laterScheduled = insert(runnel, "later", InsertOptions.builder().scheduledAt(T0.minusSeconds(10)).build());
        long earlierScheduled = insert(runnel, "earlier", InsertOptions.builder().scheduledAt(T0.minusSeconds(20)).build());
        long firstId = insert(runnel, "first", InsertOptions.NONE);
        long secondId = insert(runnel, "second", InsertOptions.NONE);
        long top = insert(runnel, "top", InsertOptions.builder().priority(1).scheduledAt(T0.minusSeconds(5)).build());
        List<JobRow> claimed = claim("default", 10);
        assertThat(claimed).extracting(JobRow::id)
                .containsExactly(earlierScheduled, laterScheduled, top, firstId, secondId, low);
        assertThat(claimed).allSatisfy(job -> {
            assertThat(job.state()).isEqualTo(JobState.RUNNING);
            assertThat(job.attempt()).isEqualTo(1);
            assertThat(job.attemptedAt()).contains(T0);
            assertThat(job.attemptedBy()).containsExactly("client-a");
        });
        assertThat(claim("default", 10)).isEmpty();
    }

    @Test
    void claimTakesAtMostTheBatchAndOnlyItsQueue() {
        Runnel runnel = inserter();
        for (int i = 0; i < 5; i++) {
            insert(runnel, "d" + i, InsertOptions.NONE);
            insert(runnel, "o" + i, InsertOptions.builder().queue("other").build());
        }
        List<JobRow> first = claim("default", 3);
        assertThat(first).hasSize(3).allSatisfy(j -> assertThat(j.queue()).isEqualTo("default"));
        assertThat(claim("default", 3)).hasSize(2);
        assertThat(claim("default", 3)).isEmpty();
        assertThat(claim("other", 100)).hasSize(5);
    }

    @Test
    void aClaimThatComesBackShortTakesJobsBehindTheLastFullOne() {
        Runnel runnel = inserter();
        long first = insert(runnel, "a", InsertOptions.builder().priority(2).build());
        long second = insert(runnel, "b", InsertOptions.builder().priority(2).build());
        long third = insert(runnel, "c", InsertOptions.builder().priority(2).build());
        assertThat(claim("default", 2)).extracting(JobRow::id).containsExactly(first, second);
        // Sorts before everything claimed so far; a claim that does not fill up must still find it.
        long urgent = insert(runnel, "urgent", InsertOptions.builder().priority(1).scheduledAt(T0.minusSeconds(60)).build());
        assertThat(claim("default", 10)).extracting(JobRow::id).containsExactly(urgent, third);
        assertThat(claim("default", 10)).isEmpty();
    }

    @Test
    void futureJobsAreNotClaimedUntilScheduledDue() {
        Runnel runnel = inserter();
        long id = insert(runnel, "later", InsertOptions.builder().scheduledAt(T0.plusSeconds(30)).build());
        assertThat(claim("default", 10)).isEmpty();
        assertThat(driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100))).isZero();
        clock.advance(Duration.ofSeconds(30));
        assertThat(driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100))).isEqualTo(1);
        assertThat(runnel.jobGet(id).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
        assertThat(claim("default", 10)).extracting(JobRow::id).containsExactly(id);
    }

    @Test
    void completeManyFinalizesOnlyRunningJobs() {
        Runnel runnel = inserter();
        long a = insert(runnel, "a", InsertOptions.NONE);
        long b = insert(runnel, "b", InsertOptions.NONE);
        long notClaimed = insert(runnel, "c", InsertOptions.builder().queue("elsewhere").build());
        List<JobRow> claimed = claim("default", 10);
        long at = Times.toMicros(T0.plusMillis(5));
        long attemptedAt = Times.toMicros(T0);
        long[] written = driver.jobCompleteMany(new JobCompleteManyParams(new long[] {a, b, notClaimed, 999_999},
                new long[] {at, at + 1, at, at}, new int[] {1, 1, 0, 1}, new long[] {attemptedAt, attemptedAt, 0, attemptedAt},
                4, "client-a"));
        assertThat(written).containsExactlyInAnyOrder(a, b);
        assertThat(claimed).hasSize(2);
        JobRow done = runnel.jobGet(a).orElseThrow();
        assertThat(done.state()).isEqualTo(JobState.COMPLETED);
        assertThat(done.finalizedAt()).contains(T0.plusMillis(5));
        assertThat(runnel.jobGet(b).orElseThrow().finalizedAt()).contains(Times.fromMicros(at + 1));
        assertThat(runnel.jobGet(notClaimed).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
    }

    @Test
    void outcomeWritesAreFencedByTheAttemptItsStartAndItsClient() {
        Runnel runnel = inserter();
        long id = insert(runnel, "fenced", InsertOptions.NONE);
        JobRow first = claim("default", 10).getFirst();
        // The attempt is rescued, retried, and claimed again by another client: a late write of the
        // first attempt must change nothing, whichever statement carries it.
        driver.jobSetStateMany(List.of(JobSetStateParams.of(first, JobState.AVAILABLE, T0, null, null, 0)));
        JobRow second = driver.jobClaim(new JobClaimParams("default", 10, T0.plusMillis(1), "client-b")).getFirst();
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(first), T0))).isEmpty();
        assertThat(driver.jobSetStateMany(List.of(JobSetStateParams.of(first, JobState.DISCARDED, null, T0, null, 0))))
                .isEmpty();
        // Same attempt number and start, but another client; same client and number, another start.
        JobRow otherClient = new JobRow(second.id(), second.kind(), second.args(), second.state(), second.queue(),
                second.priority(), second.attempt(), second.maxAttempts(), second.attemptedAt(), List.of("client-a"),
                second.createdAt(), second.scheduledAt(), second.finalizedAt(), second.errors(), second.metadata(),
                second.tags());
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(otherClient), T0))).isEmpty();
        JobRow otherStart = new JobRow(second.id(), second.kind(), second.args(), second.state(), second.queue(),
                second.priority(), second.attempt(), second.maxAttempts(), java.util.Optional.of(T0.plusMillis(2)),
                second.attemptedBy(), second.createdAt(), second.scheduledAt(), second.finalizedAt(), second.errors(),
                second.metadata(), second.tags());
        assertThat(driver.jobSetStateMany(List.of(JobSetStateParams.of(otherStart, JobState.CANCELLED, null, T0, null, 0))))
                .isEmpty();
        assertThat(runnel.jobGet(id).orElseThrow().state()).isEqualTo(JobState.RUNNING);
        // The current attempt writes, once: a repeat of the same write finds the job no longer running.
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(second), T0.plusSeconds(1)))).containsExactly(id);
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(second), T0.plusSeconds(2)))).isEmpty();
        JobRow done = runnel.jobGet(id).orElseThrow();
        assertThat(done.state()).isEqualTo(JobState.COMPLETED);
        assertThat(done.finalizedAt()).contains(T0.plusSeconds(1));
        assertThat(done.attemptedBy()).containsExactly("client-a", "client-b");
    }

    @Test
    void setStateRecordsRetriesWithErrorsAndFinalStates() {
        Runnel runnel = inserter();
        long retried = insert(runnel, "r", InsertOptions.NONE);
        long discarded = insert(runnel, "d", InsertOptions.NONE);
        long snoozed = insert(runnel, "s", InsertOptions.NONE);
        java.util.Map<Long, JobRow> claimed = claim("default", 10).stream()
                .collect(java.util.stream.Collectors.toMap(JobRow::id, j -> j));
        JobError error = new JobError(1, T0, "boom", "trace line");
        assertThat(driver.jobSetStateMany(List.of(
                JobSetStateParams.of(claimed.get(retried), JobState.RETRYABLE, T0.plusSeconds(16), null,
                        JobJson.encodeError(error), 0),
                JobSetStateParams.of(claimed.get(discarded), JobState.DISCARDED, null, T0, JobJson.encodeError(error), 0),
                JobSetStateParams.of(claimed.get(snoozed), JobState.SCHEDULED, T0.plusSeconds(60), null, null, -1))))
                .containsExactlyInAnyOrder(retried, discarded, snoozed);
        JobRow r = runnel.jobGet(retried).orElseThrow();
        assertThat(r.state()).isEqualTo(JobState.RETRYABLE);
        assertThat(r.scheduledAt()).isEqualTo(T0.plusSeconds(16));
        assertThat(r.errors()).containsExactly(error);
        assertThat(r.finalizedAt()).isEmpty();
        JobRow d = runnel.jobGet(discarded).orElseThrow();
        assertThat(d.state()).isEqualTo(JobState.DISCARDED);
        assertThat(d.finalizedAt()).contains(T0);
        JobRow s = runnel.jobGet(snoozed).orElseThrow();
        assertThat(s.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(s.attempt()).isZero();
        assertThat(s.errors()).isEmpty();

        // A second failure appends, keeping the first.
        clock.advance(Duration.ofSeconds(16));
        driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100));
        JobRow again = claim("default", 10).stream().filter(j -> j.id() == retried).findFirst().orElseThrow();
        JobError second = new JobError(2, clock.instant(), "boom again", "");
        driver.jobSetStateMany(List.of(JobSetStateParams.of(again, JobState.RETRYABLE, T0.plusSeconds(100), null,
                JobJson.encodeError(second), 0)));
        assertThat(runnel.jobGet(retried).orElseThrow().errors()).containsExactly(error, second);
    }

    @Test
    void atMostOnceClaimDeletesTheJobsAndReturnsThemCompleted() {
        Runnel runnel = inserter();
        long a = insert(runnel, "a", InsertOptions.NONE);
        long b = insert(runnel, "b", InsertOptions.builder().priority(2).build());
        long other = insert(runnel, "o", InsertOptions.builder().queue("other").build());
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams("default", 10, T0, "client-a", true));
        assertThat(claimed).extracting(JobRow::id).containsExactly(a, b);
        assertThat(claimed).allSatisfy(job -> {
            assertThat(job.state()).isEqualTo(JobState.COMPLETED);
            assertThat(job.attempt()).isEqualTo(1);
            assertThat(job.attemptedAt()).contains(T0);
            assertThat(job.attemptedBy()).containsExactly("client-a");
            assertThat(job.finalizedAt()).contains(T0);
        });
        assertThat(runnel.jobGet(a)).isEmpty();
        assertThat(runnel.jobGet(b)).isEmpty();
        assertThat(driver.jobClaim(new JobClaimParams("default", 10, T0, "client-a", true))).isEmpty();
        assertThat(runnel.jobGet(other).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
    }

    @Test
    void reinsertWritesBackAJobClaimedAtMostOnceAndIsSafeToRepeat() {
        Runnel runnel = inserter();
        long id = insert(runnel, "x", InsertOptions.builder().priority(3).maxAttempts(5).tags(List.of("t1", "t2"))
                .metadata(java.util.Map.of("tenant", "acme")).build());
        // A first attempt failed at least once, so the write-back must keep its earlier error.
        JobRow attempt1 = claim("default", 10).getFirst();
        JobError first = new JobError(1, T0, "first", "");
        driver.jobSetStateMany(List.of(JobSetStateParams.of(attempt1, JobState.AVAILABLE, T0, null, JobJson.encodeError(first), 0)));
        clock.advance(Duration.ofSeconds(1));
        JobRow claimed = driver.jobClaim(new JobClaimParams("default", 10, clock.instant(), "client-b", true)).getFirst();
        assertThat(claimed.attempt()).isEqualTo(2);
        assertThat(claimed.attemptedBy()).containsExactly("client-a", "client-b");
        assertThat(runnel.jobGet(id)).isEmpty();

        JobError second = new JobError(2, clock.instant(), "second", "trace");
        Instant finalizedAt = clock.instant().plusMillis(3);
        JobReinsertParams back = new JobReinsertParams(claimed, JobState.DISCARDED, finalizedAt, JobJson.encodeError(second));
        driver.jobReinsertMany(List.of(back));
        driver.jobReinsertMany(List.of(back)); // a repeat after an unclear failure changes nothing

        JobRow stored = runnel.jobGet(id).orElseThrow();
        assertThat(stored.state()).isEqualTo(JobState.DISCARDED);
        assertThat(stored.finalizedAt()).contains(finalizedAt);
        assertThat(stored.errors()).containsExactly(first, second);
        assertThat(stored).usingRecursiveComparison().ignoringFields("state", "finalizedAt", "errors").isEqualTo(claimed);
        assertThat(runnel.jobList(dev.runnel.JobQuery.all())).hasSize(1);
        assertThat(claim("default", 10)).isEmpty();
    }
}
