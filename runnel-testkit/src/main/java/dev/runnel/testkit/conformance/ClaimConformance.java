package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobQueuesDueParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Claiming, completing and rescheduling at the driver level, with time passed in. */
public abstract class ClaimConformance extends DriverConformance {

    @Test
    void claimsByPriorityThenScheduledTimeThenId() {
        Runnel runnel = inserter();
        long low = insertNamed(runnel, "low", InsertOptions.builder().priority(3).build());
        long laterScheduled = insertNamed(runnel, "later", InsertOptions.builder().scheduledAt(T0.minusSeconds(10)).build());
        long earlierScheduled = insertNamed(runnel, "earlier", InsertOptions.builder().scheduledAt(T0.minusSeconds(20)).build());
        long firstId = insertNamed(runnel, "first", InsertOptions.NONE);
        long secondId = insertNamed(runnel, "second", InsertOptions.NONE);
        long top = insertNamed(runnel, "top", InsertOptions.builder().priority(1).scheduledAt(T0.minusSeconds(5)).build());
        List<JobRow> claimed = claimQueue("default", 10);
        assertThat(claimed).extracting(JobRow::id)
                .containsExactly(earlierScheduled, laterScheduled, top, firstId, secondId, low);
        assertThat(claimed).allSatisfy(job -> {
            assertThat(job.state()).isEqualTo(JobState.RUNNING);
            assertThat(job.attempt()).isEqualTo(1);
            assertThat(job.attemptedAt()).contains(T0);
            assertThat(job.attemptedBy()).containsExactly("client-a");
        });
        assertThat(claimQueue("default", 10)).isEmpty();
    }

    @Test
    void aClaimedJobsTextComesBackAsItWasInsertedBeyondAscii() {
        String name = "h\u00e9llo \u2713 \u65e5\u672c \ud83d\ude00";
        Runnel runnel = inserter();
        for (boolean atMostOnce : new boolean[] {false, true}) {
            String queue = atMostOnce ? "text_once" : "text_least";
            long id = runnel.insert(new TestArgs(name, 7), InsertOptions.builder().queue(queue).tags("a", "b_2")
                    .metadata(Map.of("note", "na\u00efve \u2603")).build()).id();
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams(queue, 10, clock.instant(), "client-\u00f8", atMostOnce));
            assertThat(claimed).singleElement().satisfies(job -> {
                assertThat(job.id()).isEqualTo(id);
                assertThat(job.kind()).isEqualTo("test_job");
                assertThat(JobJson.readTree(job.args()).get("name").asText()).isEqualTo(name);
                assertThat(JobJson.readTree(job.metadata()).get("note").asText()).isEqualTo("na\u00efve \u2603");
                assertThat(job.tags()).containsExactly("a", "b_2");
                assertThat(job.attemptedBy()).containsExactly("client-\u00f8");
                assertThat(job.errors()).isEmpty();
            });
        }
    }

    @Test
    void eachJobOfAClaimComesBackWithItsOwnKindArgsAndTimes() {
        // Rows of a claim share what they have alike when they are read (a kind, the instant of a
        // job scheduled at its creation, a buffer to compact args in): each must still read as its own.
        String longArgs = "{\"name\":\"" + "x".repeat(600) + "\",\"value\":3}";
        List<String> kinds = List.of("kind_a", "kind_a", "kind_b", "kind_a", "k\u00efnd_\u00e9", "kind_b");
        List<String> args = List.of("{\"name\":\"one\",\"value\":1}", longArgs, "{\"value\":2}",
                "{\"name\":\"a \\\" quote, and: spaces\",\"value\":4}", "{\"name\":\"\u00e9\",\"value\":5}",
                "{\"name\":\"last\",\"value\":6}");
        List<JobInsertParams> jobs = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            Instant created = T0.minusSeconds(60 - i);
            Instant scheduled = i % 2 == 0 ? created : created.plusMillis(500);
            jobs.add(new JobInsertParams(kinds.get(i), args.get(i), "mixed", 1, JobState.AVAILABLE, created, scheduled,
                    25, List.of(), "{}", null, 0));
        }
        driver.jobInsertMany(jobs);
        for (boolean atMostOnce : new boolean[] {false, true}) {
            if (atMostOnce) {
                driver.jobInsertMany(jobs.stream().map(j -> new JobInsertParams(j.kind(), j.args(), "mixed_once",
                        j.priority(), j.state(), j.createdAt(), j.scheduledAt(), j.maxAttempts(), j.tags(), j.metadata(),
                        null, 0)).toList());
            }
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams(atMostOnce ? "mixed_once" : "mixed", 10,
                    clock.instant(), "client-a", atMostOnce));
            assertThat(claimed).extracting(JobRow::kind).containsExactlyElementsOf(kinds);
            for (int i = 0; i < kinds.size(); i++) {
                JobRow job = claimed.get(i);
                assertThat(JobJson.readTree(job.args())).as("args of job %d", i).isEqualTo(JobJson.readTree(args.get(i)));
                assertThat(job.createdAt()).as("created at of job %d", i).isEqualTo(jobs.get(i).createdAt());
                assertThat(job.scheduledAt()).as("scheduled at of job %d", i).isEqualTo(jobs.get(i).scheduledAt());
            }
        }
    }

    @Test
    void bigClaimsOfOneQueueInARowEachBringTheirOwnJobsAsInserted() {
        // A driver may read a big claim's rows otherwise than a small one's (SQLite reads them after
        // the claim, on another connection, once the queue's claims are big): every job, read either
        // way, must come back once, as it was inserted, running in the claim's attempt.
        int batch = 300;
        List<JobInsertParams> jobs = new ArrayList<>();
        for (int i = 0; i < 3 * batch; i++) {
            Instant created = T0.minusSeconds(3_600).plusMillis(i);
            jobs.add(new JobInsertParams(i % 3 == 0 ? "kind_a" : "kind_b", "{\"n\":" + i + "}", "big", 1,
                    JobState.AVAILABLE, created, i % 2 == 0 ? created : created.plusMillis(1), 5 + i % 3,
                    i % 5 == 0 ? List.of("t" + i) : List.of(), i % 7 == 0 ? "{\"m\":" + i + "}" : "{}", null, 0));
        }
        driver.jobInsertMany(jobs);
        Map<Integer, JobRow> seen = new java.util.HashMap<>();
        for (int claim = 0; claim < 3; claim++) {
            Instant at = T0.plusSeconds(claim);
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams("big", batch, at, "client-a"));
            assertThat(claimed).as("claim %d", claim).hasSize(batch);
            for (JobRow job : claimed) {
                int n = JobJson.readTree(job.args()).get("n").asInt();
                assertThat(seen.put(n, job)).as("job %d claimed twice", n).isNull();
                JobInsertParams inserted = jobs.get(n);
                assertThat(job.kind()).isEqualTo(inserted.kind());
                assertThat(job.createdAt()).isEqualTo(inserted.createdAt());
                assertThat(job.scheduledAt()).isEqualTo(inserted.scheduledAt());
                assertThat(job.maxAttempts()).isEqualTo(inserted.maxAttempts());
                assertThat(job.tags()).isEqualTo(inserted.tags());
                assertThat(JobJson.readTree(job.metadata())).isEqualTo(JobJson.readTree(inserted.metadata()));
                assertThat(job.state()).isEqualTo(JobState.RUNNING);
                assertThat(job.attempt()).isEqualTo(1);
                assertThat(job.attemptedAt()).contains(at);
                assertThat(job.attemptedBy()).containsExactly("client-a");
            }
        }
        assertThat(seen).hasSize(3 * batch);
        assertThat(driver.jobClaim(new JobClaimParams("big", batch, T0.plusSeconds(3), "client-a"))).isEmpty();
    }

    @Test
    void aClaimedJobWithNoTagsMetadataOrErrorsReadsThemEmptyAndItsErrorOnceItHasOne() {
        Runnel runnel = inserter();
        for (boolean atMostOnce : new boolean[] {false, true}) {
            String queue = atMostOnce ? "plain_once" : "plain_least";
            long id = insertNamed(runnel, "plain", InsertOptions.builder().queue(queue).build());
            assertThat(driver.jobClaim(new JobClaimParams(queue, 10, clock.instant(), "client-a", atMostOnce)))
                    .singleElement().satisfies(job -> {
                        assertThat(job.id()).isEqualTo(id);
                        assertThat(job.tags()).isEmpty();
                        assertThat(job.errors()).isEmpty();
                        assertThat(JobJson.readTree(job.metadata()).isEmpty()).as(job.metadata()).isTrue();
                        assertThat(job.attemptedBy()).containsExactly("client-a");
                    });
        }
        long id = insertNamed(runnel, "failing", InsertOptions.builder().queue("plain_again").build());
        JobRow first = driver.jobClaim(new JobClaimParams("plain_again", 1, T0, "client-a")).getFirst();
        driver.jobSetStateMany(List.of(JobSetStateParams.of(first, JobState.AVAILABLE, null, null,
                "{\"attempt\":1,\"at\":\"" + T0 + "\",\"error\":\"boom\",\"trace\":\"\"}", 0)));
        JobRow again = driver.jobClaim(new JobClaimParams("plain_again", 1, T0.plusSeconds(1), "client-b")).getFirst();
        assertThat(again.id()).isEqualTo(id);
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.errors()).singleElement().satisfies(e -> assertThat(e.message()).isEqualTo("boom"));
        assertThat(again.attemptedBy()).containsExactly("client-a", "client-b");
    }

    @Test
    void claimTakesAtMostTheBatchAndOnlyItsQueue() {
        Runnel runnel = inserter();
        for (int i = 0; i < 5; i++) {
            insertNamed(runnel, "d" + i, InsertOptions.NONE);
            insertNamed(runnel, "o" + i, InsertOptions.builder().queue("other").build());
        }
        List<JobRow> first = claimQueue("default", 3);
        assertThat(first).hasSize(3).allSatisfy(j -> assertThat(j.queue()).isEqualTo("default"));
        assertThat(claimQueue("default", 3)).hasSize(2);
        assertThat(claimQueue("default", 3)).isEmpty();
        assertThat(claimQueue("other", 100)).hasSize(5);
    }

    @Test
    void aClaimThatComesBackShortTakesJobsBehindTheLastFullOne() {
        Runnel runnel = inserter();
        long first = insertNamed(runnel, "a", InsertOptions.builder().priority(2).build());
        long second = insertNamed(runnel, "b", InsertOptions.builder().priority(2).build());
        long third = insertNamed(runnel, "c", InsertOptions.builder().priority(2).build());
        assertThat(claimQueue("default", 2)).extracting(JobRow::id).containsExactly(first, second);
        // Sorts before everything claimed so far; a claim that does not fill up must still find it.
        long urgent = insertNamed(runnel, "urgent", InsertOptions.builder().priority(1).scheduledAt(T0.minusSeconds(60)).build());
        assertThat(claimQueue("default", 10)).extracting(JobRow::id).containsExactly(urgent, third);
        assertThat(claimQueue("default", 10)).isEmpty();
    }

    @Test
    void theQueuesWithJobsDueNameEveryQueueWithAJobAvailableNow() {
        Runnel runnel = inserter();
        insertNamed(runnel, "now", InsertOptions.builder().queue("due_now").build());
        insertNamed(runnel, "later", InsertOptions.builder().queue("due_later").scheduledAt(T0.plusSeconds(60)).build());
        List<String> asked = List.of("due_now", "due_later", "due_none");
        // A driver may name more (at worst each then claims), never fewer.
        assertThat(driver.jobQueuesDue(new JobQueuesDueParams(asked, clock.instant())))
                .contains("due_now").isSubsetOf(asked);
        assertThat(driver.jobQueuesDue(new JobQueuesDueParams(List.of(), clock.instant()))).isEmpty();
    }

    @Test
    void futureJobsAreNotClaimedUntilScheduledDue() {
        Runnel runnel = inserter();
        long id = insertNamed(runnel, "later", InsertOptions.builder().scheduledAt(T0.plusSeconds(30)).build());
        assertThat(claimQueue("default", 10)).isEmpty();
        assertThat(driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100))).isZero();
        clock.advance(Duration.ofSeconds(30));
        assertThat(driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100))).isEqualTo(1);
        assertThat(runnel.jobGet(id).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
        assertThat(claimQueue("default", 10)).extracting(JobRow::id).containsExactly(id);
    }

    @Test
    void atMostOnceClaimDeletesTheJobsAndReturnsThemCompleted() {
        Runnel runnel = inserter();
        long a = insertNamed(runnel, "a", InsertOptions.NONE);
        long b = insertNamed(runnel, "b", InsertOptions.builder().priority(2).build());
        long other = insertNamed(runnel, "o", InsertOptions.builder().queue("other").build());
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

    // ---- a claim whose reply was lost ----

    @Test
    void aClaimWhoseReplyWasLostIsRecoveredWithItsOwnParamsAndNoOtherJob() {
        Runnel runnel = inserter();
        InsertOptions due = InsertOptions.builder().scheduledAt(T0.minusSeconds(60)).build();
        for (int i = 0; i < 7; i++) {
            insertNamed(runnel, "d" + i, due);
        }
        insertNamed(runnel, "o", InsertOptions.builder().queue("other").scheduledAt(T0.minusSeconds(60)).build());
        // Running jobs that share all but one of the lost claim's queue, time and client.
        JobRow earlier = driver.jobClaim(new JobClaimParams("default", 1, T0.minusSeconds(1), "client-a")).getFirst();
        JobRow otherQueue = driver.jobClaim(new JobClaimParams("other", 10, T0, "client-a")).getFirst();
        JobRow otherClient = driver.jobClaim(new JobClaimParams("default", 1, T0, "client-b")).getFirst();

        JobClaimParams lost = new JobClaimParams("default", 3, T0, "client-a");
        List<JobRow> claimed = driver.jobClaim(lost);
        assertThat(claimed).hasSize(3);
        // The reply never arrived; the same params find the claim's jobs, as they stand.
        List<JobRow> recovered = driver.jobClaimRecover(lost);
        assertThat(recovered).extracting(JobRow::id)
                .containsExactlyInAnyOrderElementsOf(claimed.stream().map(JobRow::id).toList())
                .doesNotContain(earlier.id(), otherQueue.id(), otherClient.id());
        assertThat(recovered).allSatisfy(job -> {
            assertThat(job.state()).isEqualTo(JobState.RUNNING);
            assertThat(job.queue()).isEqualTo("default");
            assertThat(job.attempt()).isEqualTo(1);
            assertThat(job.attemptedAt()).contains(T0);
            assertThat(job.attemptedBy()).containsExactly("client-a");
        });
        assertThat(recovered).containsExactlyInAnyOrderElementsOf(claimed);
        // Only the jobs still running: one that has finished meanwhile is not the claim's to run.
        JobRow done = claimed.getFirst();
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(done), T0.plusSeconds(1))))
                .containsExactly(done.id());
        assertThat(driver.jobClaimRecover(lost)).extracting(JobRow::id).containsExactlyInAnyOrderElementsOf(
                claimed.subList(1, claimed.size()).stream().map(JobRow::id).toList());
        // A claim that took nothing finds nothing, though the client runs jobs of that queue.
        assertThat(driver.jobClaimRecover(new JobClaimParams("default", 3, T0.plusNanos(1_000), "client-a"))).isEmpty();
        assertThat(driver.jobClaimRecover(new JobClaimParams("default", 3, T0, "client-c"))).isEmpty();
        // The two jobs no claim took are still there for the next one.
        assertThat(claimQueue("default", 10)).hasSize(2);
    }

    // ---- when a job is due ----

    private List<JobRow> claimAt(String queue, int max, Instant now, boolean atMostOnce) {
        return driver.jobClaim(new JobClaimParams(queue, max, now, "client-a", atMostOnce));
    }

    private long insertAvailable(String queue, Instant scheduledAt) {
        return new JobMaker(driver).insert(queue, JobState.AVAILABLE, scheduledAt);
    }

    @Test
    void anAvailableJobDueLaterIsNotClaimed() {
        // Clients' clocks differ: one running ahead inserts a job as available that is due, by the
        // claiming client's clock, only later. Neither claim may take it before then.
        for (boolean atMostOnce : new boolean[] {false, true}) {
            String queue = atMostOnce ? "once" : "default";
            long later = insertAvailable(queue, T0.plusSeconds(30));
            long now = insertAvailable(queue, T0);
            assertThat(claimAt(queue, 10, T0, atMostOnce)).extracting(JobRow::id).containsExactly(now);
            assertThat(claimAt(queue, 10, T0.plusSeconds(29), atMostOnce)).isEmpty();
            JobRow waiting = driver.jobGet(later).orElseThrow();
            assertThat(waiting.state()).isEqualTo(JobState.AVAILABLE);
            assertThat(waiting.attempt()).isZero();
            assertThat(waiting.attemptedAt()).isEmpty();
            assertThat(waiting.attemptedBy()).isEmpty();
            assertThat(claimAt(queue, 10, T0.plusSeconds(30), atMostOnce)).extracting(JobRow::id).containsExactly(later);
        }
    }

    @Test
    void aJobIsDueAtItsScheduledTimeToTheMicrosecond() {
        Instant due = T0.plusNanos(123_456_000);
        for (boolean atMostOnce : new boolean[] {false, true}) {
            String queue = atMostOnce ? "once" : "default";
            long id = insertAvailable(queue, due);
            // Stored cut to the microsecond, not rounded up: due at the same time as the first.
            long cut = insertAvailable(queue, due.plusNanos(999));
            assertThat(claimAt(queue, 10, due.minusNanos(1_000), atMostOnce)).as("1 µs early").isEmpty();
            // The claim's time is cut to its microsecond too, which is still 1 µs early.
            assertThat(claimAt(queue, 10, due.minusNanos(1), atMostOnce)).as("1 ns early").isEmpty();
            assertThat(claimAt(queue, 10, due, atMostOnce)).extracting(JobRow::id).containsExactly(id, cut);
        }
    }

    @Test
    void atMostOnceClaimTakesAtMostTheBatchInOrderAndLeavesFutureJobsAlone() {
        Runnel runnel = inserter();
        long[] due = new long[5];
        for (int i = 0; i < due.length; i++) {
            due[i] = insertNamed(runnel, "d" + i, InsertOptions.builder().scheduledAt(T0.minusSeconds(10 - i)).build());
        }
        long future = insertAvailable("default", T0.plusNanos(1_000));
        long scheduled = insertNamed(runnel, "s", InsertOptions.builder().scheduledAt(T0.plusSeconds(5)).build());
        assertThat(claimAt("default", 3, T0, true)).extracting(JobRow::id).containsExactly(due[0], due[1], due[2]);
        assertThat(runnel.jobList(JobQuery.all())).extracting(JobRow::id)
                .containsExactly(due[3], due[4], future, scheduled);
        assertThat(claimAt("default", 3, T0, true)).extracting(JobRow::id).containsExactly(due[3], due[4]);
        assertThat(claimAt("default", 3, T0, true)).isEmpty();
        assertThat(runnel.jobGet(future).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
        assertThat(runnel.jobGet(scheduled).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        assertThat(claimAt("default", 3, T0.plusNanos(1_000), true)).extracting(JobRow::id).containsExactly(future);
    }

    // ---- outcome writes touch running jobs only ----

    // ---- finalized_at ----

    // ---- every kind of setState write ----

    // ---- attempted_by ----

    /** Claims the only job of {@code queue} {@code times} times, each by a client of its own, giving each attempt back. */
    private List<String> claimOverAndOver(String queue, long id, int times) {
        List<String> clients = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            String client = queue + "-client-" + i;
            clients.add(client);
            List<String> expected = clients.subList(Math.max(0, clients.size() - JobClaimParams.MAX_ATTEMPTED_BY),
                    clients.size());
            clock.advance(Duration.ofNanos(1_000));
            JobRow claimed = driver.jobClaim(new JobClaimParams(queue, 1, clock.instant(), client)).getFirst();
            assertThat(claimed.id()).isEqualTo(id);
            assertThat(claimed.attempt()).isEqualTo(1);
            assertThat(claimed.attemptedBy()).as("claim %d", i + 1).containsExactlyElementsOf(expected);
            assertThat(driver.jobGet(id).orElseThrow().attemptedBy()).as("stored after claim %d", i + 1)
                    .containsExactlyElementsOf(expected);
            // Given back without using the attempt, as a snooze does.
            assertThat(driver.jobSetStateMany(List.of(JobSetStateParams.of(claimed, JobState.AVAILABLE, null, null,
                    null, -1)))).containsExactly(id);
        }
        return clients;
    }

    @Test
    void attemptedByKeepsTheLastHundredClientsNewestLast() {
        Runnel runnel = inserter();
        long id = insertNamed(runnel, "popular", InsertOptions.NONE);
        List<String> clients = claimOverAndOver("default", id, JobClaimParams.MAX_ATTEMPTED_BY + 5);
        JobRow row = runnel.jobGet(id).orElseThrow();
        assertThat(row.attemptedBy()).hasSize(JobClaimParams.MAX_ATTEMPTED_BY)
                .containsExactlyElementsOf(clients.subList(5, clients.size()));
        assertThat(row.attemptedBy().getLast()).isEqualTo("default-client-104");
        assertThat(row.attempt()).isZero();
        // The attempt holder is still the last entry, so its write is accepted.
        JobRow claimed = claimQueue("default", 1).getFirst();
        assertThat(claimed.attemptedBy()).hasSize(JobClaimParams.MAX_ATTEMPTED_BY).last().isEqualTo("client-a");
        assertThat(claimed.attemptedBy().getFirst()).isEqualTo("default-client-6");
        assertThat(driver.jobCompleteMany(JobCompleteManyParams.of(List.of(claimed), T0.plusSeconds(1))))
                .containsExactly(id);
    }

    @Test
    void atMostOnceClaimKeepsTheLastHundredClientsToo() {
        Runnel runnel = inserter();
        long full = insertNamed(runnel, "full", InsertOptions.builder().queue("full").build());
        long almost = insertNamed(runnel, "almost", InsertOptions.builder().queue("almost").build());
        long over = insertNamed(runnel, "over", InsertOptions.builder().queue("over").build());
        List<String> fullClients = claimOverAndOver("full", full, JobClaimParams.MAX_ATTEMPTED_BY);
        List<String> almostClients = claimOverAndOver("almost", almost, JobClaimParams.MAX_ATTEMPTED_BY - 1);
        List<String> overClients = claimOverAndOver("over", over, JobClaimParams.MAX_ATTEMPTED_BY + 3);
        Map<String, List<String>> expected = Map.of(
                "full", concat(fullClients.subList(1, fullClients.size()), "once"),
                "almost", concat(almostClients, "once"),
                "over", concat(overClients.subList(4, overClients.size()), "once"));
        for (String queue : List.of("full", "almost", "over")) {
            clock.advance(Duration.ofSeconds(1));
            JobRow claimed = driver.jobClaim(new JobClaimParams(queue, 1, clock.instant(), "once", true)).getFirst();
            assertThat(claimed.attemptedBy()).as(queue).hasSize(JobClaimParams.MAX_ATTEMPTED_BY)
                    .containsExactlyElementsOf(expected.get(queue));
            // Written back as it was claimed.
            driver.jobReinsertMany(List.of(new JobReinsertParams(claimed, JobState.DISCARDED, clock.instant(), null)));
            assertThat(runnel.jobGet(claimed.id()).orElseThrow().attemptedBy()).as(queue)
                    .containsExactlyElementsOf(expected.get(queue));
        }
    }

    private static List<String> concat(List<String> first, String last) {
        List<String> all = new ArrayList<>(first);
        all.add(last);
        return all;
    }
}
