package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.InsertOptions;
import dev.runnel.JobError;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.Times;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Writing the outcomes of claimed jobs at the driver level: completions, every other state, the
 * write-back of at-most-once jobs; each write fenced by its attempt, leaving jobs that moved on
 * alone, and keeping the finalized_at rule.
 */
public abstract class OutcomeConformance extends DriverConformance {

    @Test
    void completeManyFinalizesOnlyRunningJobs() {
        Runnel runnel = inserter();
        long a = insertNamed(runnel, "a", InsertOptions.NONE);
        long b = insertNamed(runnel, "b", InsertOptions.NONE);
        long notClaimed = insertNamed(runnel, "c", InsertOptions.builder().queue("elsewhere").build());
        List<JobRow> claimed = claimQueue("default", 10);
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
    void aDeletingCompletionRemovesOnlyTheJobsOfTheAttemptsItNamesAndFreesTheirUniqueKeys() {
        Runnel runnel = inserter();
        InsertOptions unique = InsertOptions.builder().unique(dev.runnel.UniqueOptions.builder().byArgs().build()).build();
        long a = insertNamed(runnel, "a", unique);
        long b = insertNamed(runnel, "b", InsertOptions.NONE);
        long notClaimed = insertNamed(runnel, "c", InsertOptions.builder().queue("elsewhere").build());
        Map<Long, JobRow> claimed = new HashMap<>();
        claimQueue("default", 10).forEach(j -> claimed.put(j.id(), j));
        JobRow late = claimed.get(b);
        JobRow otherStart = new JobRow(late.id(), late.kind(), late.args(), late.state(), late.queue(), late.priority(),
                late.attempt(), late.maxAttempts(), Optional.of(late.attemptedAt().orElseThrow().plusMillis(1)),
                late.attemptedBy(), late.createdAt(), late.scheduledAt(), late.finalizedAt(), late.errors(),
                late.metadata(), late.tags());
        JobRow stranger = runnel.jobGet(notClaimed).orElseThrow();
        JobCompleteManyParams completions = JobCompleteManyParams.of(List.of(claimed.get(a), otherStart), T0.plusMillis(5));
        assertThat(driver.jobCompleteMany(completions.deleting())).containsExactly(a);
        assertThat(runnel.jobGet(a)).isEmpty();
        assertThat(runnel.jobGet(b).orElseThrow().state()).isEqualTo(JobState.RUNNING);
        assertThat(runnel.jobGet(notClaimed).orElseThrow()).isEqualTo(stranger);
        assertThat(runnel.jobList(JobQuery.inStates(JobState.COMPLETED))).isEmpty();
        assertThat(runnel.jobCounts()).noneMatch(c -> c.state() == JobState.COMPLETED)
                .anyMatch(c -> c.state() == JobState.RUNNING && c.count() == 1);
        // A repeat finds nothing to delete; the key the deleted job held is free again.
        assertThat(driver.jobCompleteMany(completions.deleting())).isEmpty();
        assertThat(runnel.insert(new TestArgs("a", 0), unique).duplicate()).isFalse();
        // The job whose attempt it did not name completes as usual.
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(late), T0.plusMillis(6)).deleting()))
                .containsExactly(b);
        assertThat(runnel.jobGet(b)).isEmpty();
    }

    @Test
    void outcomeWritesAreFencedByTheAttemptItsStartAndItsClient() {
        Runnel runnel = inserter();
        long id = insertNamed(runnel, "fenced", InsertOptions.NONE);
        JobRow first = claimQueue("default", 10).getFirst();
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
        long retried = insertNamed(runnel, "r", InsertOptions.NONE);
        long discarded = insertNamed(runnel, "d", InsertOptions.NONE);
        long snoozed = insertNamed(runnel, "s", InsertOptions.NONE);
        java.util.Map<Long, JobRow> claimed = claimQueue("default", 10).stream()
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
        JobRow again = claimQueue("default", 10).stream().filter(j -> j.id() == retried).findFirst().orElseThrow();
        JobError second = new JobError(2, clock.instant(), "boom again", "");
        driver.jobSetStateMany(List.of(JobSetStateParams.of(again, JobState.RETRYABLE, T0.plusSeconds(100), null,
                JobJson.encodeError(second), 0)));
        assertThat(runnel.jobGet(retried).orElseThrow().errors()).containsExactly(error, second);
    }

    @Test
    void reinsertWritesBackAJobClaimedAtMostOnceAndIsSafeToRepeat() {
        Runnel runnel = inserter();
        long id = insertNamed(runnel, "x", InsertOptions.builder().priority(3).maxAttempts(5).tags(List.of("t1", "t2"))
                .metadata(java.util.Map.of("tenant", "acme")).build());
        // A first attempt failed at least once, so the write-back must keep its earlier error.
        JobRow attempt1 = claimQueue("default", 10).getFirst();
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
        assertThat(claimQueue("default", 10)).isEmpty();
    }

    @Test
    void outcomeWritesLeaveJobsThatAreNotRunningAlone() {
        JobMaker make = new JobMaker(driver);
        // Each job's attempt is the one the write names, in number, start and client: only its state
        // is no longer running, so only the state can keep the write out.
        List<JobRow> attempts = new ArrayList<>();
        for (JobState state : JobState.values()) {
            if (state != JobState.RUNNING && state != JobState.PENDING) { // an attempt never ends pending
                attempts.add(make.attemptThen(state, T0));
            }
        }
        // And jobs never claimed at all.
        attempts.add(JobMaker.neverClaimed(make.make(JobState.AVAILABLE, T0, T0).id(), T0));
        attempts.add(JobMaker.neverClaimed(make.make(JobState.SCHEDULED, T0.plusSeconds(60), T0).id(), T0));
        JobRow running = make.attemptThen(JobState.RUNNING, T0);
        JobRow runningToo = make.attemptThen(JobState.RUNNING, T0);
        Map<Long, JobRow> before = new HashMap<>();
        for (JobRow attempt : attempts) {
            before.put(attempt.id(), make.stored(attempt.id()));
        }

        List<JobRow> completions = new ArrayList<>(attempts);
        completions.add(2, running);
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(completions, T0.plusSeconds(1))))
                .containsExactly(running.id());
        for (JobState state : JobState.values()) {
            if (state == JobState.RUNNING || state == JobState.PENDING) {
                continue;
            }
            List<JobSetStateParams> updates = new ArrayList<>();
            for (JobRow attempt : attempts) {
                updates.add(JobSetStateParams.of(attempt, state, state.isFinal() ? null : T0.plusSeconds(5),
                        state.isFinal() ? T0.plusSeconds(1) : null, JobJson.encodeError(new JobError(1, T0, "late", "")),
                        state == JobState.SCHEDULED ? -1 : 0));
            }
            assertThat(driver.jobSetStateMany(updates)).as("setting %s", state).isEmpty();
        }
        assertThat(driver.jobSetStateMany(List.of(JobSetStateParams.of(attempts.getFirst(), JobState.CANCELLED, null,
                T0, null, 0), JobSetStateParams.of(runningToo, JobState.CANCELLED, null, T0, null, 0))))
                .containsExactly(runningToo.id());
        for (JobRow attempt : attempts) {
            assertThat(make.stored(attempt.id())).as("job %d", attempt.id()).isEqualTo(before.get(attempt.id()));
        }
        assertThat(make.stored(running.id()).state()).isEqualTo(JobState.COMPLETED);
        assertThat(make.stored(runningToo.id()).state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void outcomeWritesIgnoreUnknownIdsAndWriteTheRestOfTheBatch() {
        Runnel runnel = inserter();
        for (int i = 0; i < 4; i++) {
            insertNamed(runnel, "j" + i, InsertOptions.NONE);
        }
        long gone = insertNamed(runnel, "gone", InsertOptions.builder().queue("once").build());
        List<JobRow> claimed = claimQueue("default", 10);
        JobRow removed = driver.jobClaim(new JobClaimParams("once", 10, T0, "client-a", true)).getFirst();
        assertThat(removed.id()).isEqualTo(gone);
        JobRow a = claimed.get(0);
        JobRow b = claimed.get(1);
        JobRow c = claimed.get(2);
        JobRow d = claimed.get(3);
        long unknown = d.id() + 1_000;

        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(JobMaker.withId(a, unknown), a,
                removed, b, JobMaker.withId(b, -1)), T0.plusSeconds(1)))).containsExactlyInAnyOrder(a.id(), b.id());
        assertThat(driver.jobSetStateMany(List.of(
                JobSetStateParams.of(JobMaker.withId(c, unknown), JobState.RETRYABLE, T0.plusSeconds(5), null, null, 0),
                JobSetStateParams.of(c, JobState.RETRYABLE, T0.plusSeconds(5), null, null, 0),
                JobSetStateParams.of(removed, JobState.DISCARDED, null, T0, null, 0),
                JobSetStateParams.of(d, JobState.DISCARDED, null, T0.plusSeconds(1), null, 0),
                JobSetStateParams.of(JobMaker.withId(d, unknown + 1), JobState.DISCARDED, null, T0, null, 0))))
                .containsExactlyInAnyOrder(c.id(), d.id());
        assertThat(runnel.jobGet(a.id()).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        assertThat(runnel.jobGet(b.id()).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        assertThat(runnel.jobGet(c.id()).orElseThrow().state()).isEqualTo(JobState.RETRYABLE);
        assertThat(runnel.jobGet(d.id()).orElseThrow().state()).isEqualTo(JobState.DISCARDED);
        assertThat(runnel.jobGet(gone)).isEmpty();
        assertThat(runnel.jobGet(unknown)).isEmpty();
        assertThat(runnel.jobList(JobQuery.all())).hasSize(4);
        // Empty batches write nothing and do not fail.
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(), T0))).isEmpty();
        assertThat(driver.jobSetStateMany(List.of())).isEmpty();
    }

    @Test
    void finalizedAtIsSetExactlyWhenTheStateIsFinal() throws Exception {
        JobMaker make = new JobMaker(driver);
        Instant claimedAt = T0.plusNanos(1_000_001_999); // stored as T0 + 1.000001 s
        Instant at = claimedAt.plusNanos(2_345_678); // stored as T0 + 1.002347 s
        Map<Long, JobState> states = new HashMap<>();
        Set<Long> attempted = new HashSet<>();
        for (JobState state : JobState.values()) {
            if (state == JobState.PENDING) {
                continue; // no outcome of an attempt: only an insert or a retry makes a job pending
            }
            JobRow claimed = make.claim(make.newQueue(), T0, claimedAt);
            attempted.add(claimed.id());
            states.put(claimed.id(), state);
            long[] written = switch (state) {
                // The way back from a claim: a rescued attempt, a snooze.
                case AVAILABLE, SCHEDULED -> driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, state,
                        at.plusSeconds(5), null, null, -1)));
                case RUNNING -> new long[] {claimed.id()};
                case PENDING -> throw new AssertionError("skipped above");
                case COMPLETED -> driver.jobCompleteMany(JobCompleteManyParams.of(List.of(claimed), at));
                case RETRYABLE -> driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, state, at, null,
                        JobJson.encodeError(new JobError(1, at, "retry", "")), 0)));
                case CANCELLED, DISCARDED -> driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, state, null,
                        at, null, 0)));
            };
            assertThat(written).containsExactly(claimed.id());
        }
        // And jobs inserted so, never claimed.
        states.put(make.make(JobState.AVAILABLE, T0, T0).id(), JobState.AVAILABLE);
        states.put(make.make(JobState.SCHEDULED, T0.plusSeconds(60), T0).id(), JobState.SCHEDULED);

        // The column itself, where the store is an SQL database the application can read (the
        // drivers that join its transactions); elsewhere the rows the driver reads back below.
        boolean sql = driver.supportsTransactionalInsert();
        Map<Long, Boolean> nullFinalizedAt = new HashMap<>();
        if (sql) {
            try (Connection c = newConnection(dir); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id, finalized_at IS NULL FROM runnel_job")) {
                while (rs.next()) {
                    nullFinalizedAt.put(rs.getLong(1), rs.getBoolean(2));
                }
            }
            assertThat(nullFinalizedAt.keySet()).containsExactlyInAnyOrderElementsOf(states.keySet());
        }
        Instant stored = T0.plusNanos(1_002_347_000);
        states.forEach((id, state) -> {
            JobRow row = make.stored(id);
            assertThat(row.state()).isEqualTo(state);
            if (sql) {
                assertThat(nullFinalizedAt.get(id)).as("finalized_at IS NULL in state %s", state)
                        .isEqualTo(!state.isFinal());
            }
            assertThat(row.finalizedAt()).as("finalized_at in state %s", state)
                    .isEqualTo(state.isFinal() ? Optional.of(stored) : Optional.empty());
            assertThat(row.attemptedAt()).as("attempted_at in state %s", state)
                    .isEqualTo(attempted.contains(id) ? Optional.of(T0.plusNanos(1_000_001_000)) : Optional.empty());
        });
    }

    @Test
    void aWriteThatWouldBreakTheFinalizedAtRuleIsRefusedWhole() {
        Runnel runnel = inserter();
        insertNamed(runnel, "a", InsertOptions.NONE);
        insertNamed(runnel, "b", InsertOptions.NONE);
        List<JobRow> claimed = claimQueue("default", 10);
        JobRow a = claimed.get(0);
        JobRow b = claimed.get(1);
        assertThatThrownBy(() -> driver.jobSetStateMany(List.of(
                JobSetStateParams.of(a, JobState.RETRYABLE, T0.plusSeconds(1), null, null, 0),
                JobSetStateParams.of(b, JobState.DISCARDED, null, null, null, 0))))
                .isInstanceOf(DataRejectedException.class);
        assertThatThrownBy(() -> driver.jobSetStateMany(List.of(
                JobSetStateParams.of(a, JobState.RETRYABLE, T0.plusSeconds(1), T0, null, 0))))
                .isInstanceOf(DataRejectedException.class);
        assertThat(runnel.jobGet(a.id()).orElseThrow()).isEqualTo(a);
        assertThat(runnel.jobGet(b.id()).orElseThrow()).isEqualTo(b);
    }

    @Test
    void setStateWritesABatchOfDifferentOutcomesEachToItsOwnJob() throws Exception {
        Runnel runnel = inserter();
        InsertOptions options = InsertOptions.builder().queue("mixed").priority(2).maxAttempts(9).tags("t1")
                .metadata(Map.of("k", "v")).scheduledAt(T0.minusSeconds(30)).build();
        // One job on its second attempt, so that the attempt counter's arithmetic shows.
        insertNamed(runnel, "m0", options);
        JobRow first = driver.jobClaim(new JobClaimParams("mixed", 10, T0, "client-a")).getFirst();
        driver.jobSetStateMany(List.of(JobSetStateParams.of(first, JobState.AVAILABLE, null, null, null, 0)));
        for (int i = 1; i < 8; i++) {
            insertNamed(runnel, "m" + i, options);
        }
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams("mixed", 7, T0.plusNanos(1_000), "client-b"));
        assertThat(claimed).hasSize(7);
        JobRow twice = claimed.getFirst();
        assertThat(twice.id()).isEqualTo(first.id());
        assertThat(twice.attempt()).isEqualTo(2);
        JobRow bystander = runnel.jobList(JobQuery.inStates(JobState.AVAILABLE).queue("mixed")).getFirst();

        Instant at = T0.plusNanos(5_000_123_456L);
        Instant cut = T0.plusNanos(5_000_123_000L);
        JobError error = new JobError(1, at, "boom", "at Worker.work");
        record Expect(JobRow claimed, JobState state, Instant scheduledAt, Instant finalizedAt, int attempt,
                List<JobError> errors) {}
        List<Expect> expected = List.of(
                // Failed: retried later, with its error.
                new Expect(claimed.get(1), JobState.RETRYABLE, at.plusSeconds(16), null, 1, List.of(error)),
                // Snoozed: a new time, the attempt given back.
                new Expect(claimed.get(2), JobState.SCHEDULED, at.plusSeconds(60), null, 0, List.of()),
                // Given back at once: no new time (kept), the attempt given back.
                new Expect(claimed.get(3), JobState.AVAILABLE, null, null, 0, List.of()),
                new Expect(claimed.get(4), JobState.CANCELLED, null, at, 1, List.of(error)),
                new Expect(claimed.get(5), JobState.COMPLETED, null, at, 1, List.of()),
                new Expect(claimed.get(6), JobState.DISCARDED, null, at, 1, List.of(error)),
                // The second attempt interrupted by a stop: retryable, time kept, that attempt given back.
                new Expect(twice, JobState.RETRYABLE, null, null, 1, List.of(error)));
        List<JobSetStateParams> updates = new ArrayList<>();
        for (Expect e : expected) {
            updates.add(JobSetStateParams.of(e.claimed(), e.state(), e.scheduledAt(), e.finalizedAt(),
                    e.errors().isEmpty() ? null : JobJson.encodeError(error), e.attempt() - e.claimed().attempt()));
        }
        assertThat(driver.jobSetStateMany(updates))
                .containsExactlyInAnyOrder(expected.stream().mapToLong(e -> e.claimed().id()).toArray());
        for (Expect e : expected) {
            JobRow row = runnel.jobGet(e.claimed().id()).orElseThrow();
            String job = e.state() + " job " + e.claimed().id();
            assertThat(row.state()).as(job).isEqualTo(e.state());
            assertThat(row.scheduledAt()).as("scheduled_at of %s", job)
                    .isEqualTo(e.scheduledAt() == null ? T0.minusSeconds(30) : Times.truncate(e.scheduledAt()));
            assertThat(row.finalizedAt()).as("finalized_at of %s", job)
                    .isEqualTo(e.finalizedAt() == null ? Optional.empty() : Optional.of(cut));
            assertThat(row.attempt()).as("attempt of %s", job).isEqualTo(e.attempt());
            assertThat(row.errors()).as("errors of %s", job).isEqualTo(e.errors());
            // A snooze (waiting again, its attempt given back) counts itself in the metadata; nothing else does.
            boolean snoozed = (e.state() == JobState.SCHEDULED || e.state() == JobState.AVAILABLE)
                    && e.attempt() < e.claimed().attempt();
            assertThat(row.snoozes()).as("snoozes of %s", job).isEqualTo(snoozed ? 1 : 0);
            ObjectNode metadata = (ObjectNode) JobJson.READER.readTree(row.metadata());
            metadata.remove(JobJson.SNOOZES_KEY);
            assertThat(metadata).as("metadata of %s", job).isEqualTo(JobJson.READER.readTree(e.claimed().metadata()));
            assertThat(row).as("the rest of %s", job).usingRecursiveComparison()
                    .ignoringFields("state", "scheduledAt", "finalizedAt", "attempt", "errors", "metadata")
                    .isEqualTo(e.claimed());
        }
        assertThat(runnel.jobGet(bystander.id()).orElseThrow()).isEqualTo(bystander);
    }

    @Test
    void setStateStoresAnyErrorTextExactly() {
        List<String> texts = List.of(
                "double \"quotes\" and 'single' ones",
                "back\\slash, two \\\\, a trailing one \\",
                "{braces} [brackets] {\"looks\": [\"like\", \"json\"]}",
                "unicode: é ß 日本語 Ωμέγα 😀 \u2028 \u00a0",
                "control: new\nline, tab\t, return\r, bell \u0007, unit \u001f",
                "escapes written out: \\n \\t \\u0041 \\u0000 \\\"",
                "'); DROP TABLE runnel_job; --",
                "NULL",
                "",
                "{",
                "a,b,\"c,d\"");
        Runnel runnel = inserter();
        for (int i = 0; i < texts.size(); i++) {
            insertNamed(runnel, "e" + i, InsertOptions.NONE);
        }
        List<JobRow> claimed = claimQueue("default", 100);
        assertThat(claimed).hasSize(texts.size());
        List<JobSetStateParams> updates = new ArrayList<>();
        Map<Long, JobError> errors = new HashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            JobRow job = claimed.get(i);
            JobError error = new JobError(1, T0.plusNanos(i), texts.get(i), texts.get(texts.size() - 1 - i));
            errors.put(job.id(), error);
            JobState state = i % 3 == 0 ? JobState.RETRYABLE : i % 3 == 1 ? JobState.DISCARDED : JobState.CANCELLED;
            updates.add(JobSetStateParams.of(job, state, state.isFinal() ? null : T0.plusSeconds(1),
                    state.isFinal() ? T0 : null, JobJson.encodeError(error), 0));
        }
        assertThat(driver.jobSetStateMany(updates)).hasSize(texts.size());
        errors.forEach((id, error) -> assertThat(runnel.jobGet(id).orElseThrow().errors())
                .as("errors of job %d", id).containsExactly(error));

        // A second error is appended after the first, both read back as written.
        JobRow retried = claimed.getFirst();
        clock.advance(Duration.ofSeconds(1));
        driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100));
        JobRow again = claimQueue("default", 10).getFirst();
        assertThat(again.id()).isEqualTo(retried.id());
        assertThat(again.errors()).containsExactly(errors.get(retried.id()));
        JobError second = new JobError(2, clock.instant(), texts.get(3) + texts.get(1), texts.get(0));
        assertThat(driver.jobSetStateMany(List.of(JobSetStateParams.of(again, JobState.DISCARDED, null, clock.instant(),
                JobJson.encodeError(second), 0)))).containsExactly(again.id());
        assertThat(runnel.jobGet(retried.id()).orElseThrow().errors()).containsExactly(errors.get(retried.id()), second);
    }
}
