package dev.runnel.testkit.conformance;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobCancel;
import dev.runnel.JobDiscard;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.Lease;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import dev.runnel.testkit.ForwardingDriver;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The cleaner: final jobs deleted once past their state's retention, in bounded batches, by the leader. */
public abstract class CleanConformance extends DriverConformance {

    @Test
    void deletesOnlyJobsOfTheStateFinalizedBeforeTheCutoffOldestFirstAndAtMostTheLimit() {
        Runnel runnel = inserter();
        long[] ids = InsertResult.ids(runnel.insertMany(IntStream.range(0, 5).mapToObj(i -> InsertRequest.of(new TestArgs("j" + i, i))).toList()));
        long running = runnel.insert(new TestArgs("running", 9)).id();
        List<JobRow> claimed = driver.jobClaim(new JobClaimParams("default", 5, T0, "c"));
        for (int i = 0; i < claimed.size(); i++) {
            driver.jobCompleteMany(JobCompleteManyParams.of(List.of(claimed.get(i)), T0.plusSeconds(i)));
        }
        driver.jobClaim(new JobClaimParams("default", 5, T0, "c"));
        driver.leaderAttemptElect(new LeaderElectParams("leader", T0, T0.plusSeconds(3600)));
        Lease lease = new Lease("leader", T0.plusSeconds(100));
        assertThat(driver.jobDeleteFinalized(new JobDeleteFinalizedParams(lease, JobState.DISCARDED, T0.plusSeconds(100), 10)))
                .isZero();
        // Finalized at T0+0..4: before T0+3 are three, of which the limit takes the two oldest.
        assertThat(driver.jobDeleteFinalized(new JobDeleteFinalizedParams(lease, JobState.COMPLETED, T0.plusSeconds(3), 2)))
                .isEqualTo(2);
        assertThat(runnel.jobGet(ids[0])).isEmpty();
        assertThat(runnel.jobGet(ids[1])).isEmpty();
        assertThat(runnel.jobGet(ids[2])).isPresent();
        assertThat(driver.jobDeleteFinalized(new JobDeleteFinalizedParams(lease, JobState.COMPLETED, T0.plusSeconds(3), 2)))
                .isEqualTo(1);
        assertThat(runnel.jobList(JobQuery.all())).extracting(JobRow::id).containsExactly(ids[3], ids[4], running);
        // Without the lease: nothing.
        assertThat(driver.jobDeleteFinalized(new JobDeleteFinalizedParams(new Lease("impostor", T0.plusSeconds(100)),
                JobState.COMPLETED, T0.plusSeconds(100), 10))).isZero();
        assertThat(runnel.jobList(JobQuery.all())).hasSize(3);
    }

    @Test
    void theLeaderDeletesEachFinalStateAfterItsRetentionAndKeepsWhatItIsToldToKeep() {
        EventRecorder events = new EventRecorder();
        // The cleaner rounds ended: each ends with its last statement, that of expired clients.
        AtomicInteger rounds = new AtomicInteger();
        Driver watched = new ForwardingDriver(driver) {
            @Override
            public int clientDeleteExpired(ClientDeleteParams params) {
                int deleted = super.clientDeleteExpired(params);
                rounds.incrementAndGet();
                return deleted;
            }
        };
        Runnel runnel = started(client().driver(watched).queue("default", 10).listener(events)
                .retention(JobState.COMPLETED, Duration.ofHours(1))
                .retention(JobState.CANCELLED, Duration.ofHours(3))
                .retainForever(JobState.DISCARDED)
                .worker(TestArgs.class, job -> {
                    switch (job.args().name()) {
                        case "cancel" -> throw new JobCancel("no");
                        case "discard" -> throw new JobDiscard("no");
                        default -> { }
                    }
                }));
        Await.until("the client to lead", runnel::isLeader);
        long completed = runnel.insert(new TestArgs("complete", 1)).id();
        long cancelled = runnel.insert(new TestArgs("cancel", 2)).id();
        long discarded = runnel.insert(new TestArgs("discard", 3)).id();
        long waiting = runnel.insert(new TestArgs("later", 4), InsertOptions.builder().scheduledAt(T0.plusSeconds(86_400 * 30)).build()).id();
        events.await(completed);
        events.await(cancelled);
        events.await(discarded);
        clock.advance(Duration.ofHours(2));
        Await.until("the completed job to be deleted", () -> runnel.jobGet(completed).isEmpty());
        assertThat(runnel.jobGet(cancelled)).isPresent();
        clock.advance(Duration.ofHours(2));
        Await.until("the cancelled job to be deleted", () -> runnel.jobGet(cancelled).isEmpty());
        clock.advance(Duration.ofDays(365));
        // A whole round a year on must keep the discarded job, and the one never run. The jump ended
        // the leader's lease, so rounds delete nothing until it is renewed: only a round after counts.
        Instant yearOn = clock.instant();
        Await.until("the lease renewed a year on",
                () -> driver.leaderGet().filter(l -> l.expiresAt().isAfter(yearOn)).isPresent());
        int ended = rounds.get();
        Await.until("a whole cleaner round under the renewed lease", () -> rounds.get() >= ended + 2);
        assertThat(runnel.jobGet(discarded)).isPresent();
        assertThat(runnel.jobGet(waiting)).isPresent();
    }

    @Test
    void aClientThatKeepsNoCompletedJobsDeletesEachByItsCompletion() {
        // Another client leads, so that no cleaner of this one deletes anything.
        driver.leaderAttemptElect(new LeaderElectParams("another-client", T0, T0.plusSeconds(86_400)));
        EventRecorder events = new EventRecorder();
        Runnel runnel = started(client().queue("default", 10).listener(events)
                .retention(JobState.COMPLETED, Duration.ZERO)
                .worker(TestArgs.class, job -> {
                    switch (job.args().name()) {
                        case "discard" -> throw new JobDiscard("no");
                        case "output" -> job.recordOutput(java.util.Map.of("rows", 3));
                        default -> { }
                    }
                }));
        long plain = runnel.insert(new TestArgs("plain", 1)).id();
        long withOutput = runnel.insert(new TestArgs("output", 2)).id();
        long discarded = runnel.insert(new TestArgs("discard", 3)).id();
        assertThat(events.await(plain).type()).isEqualTo(dev.runnel.JobEvent.Type.COMPLETED);
        assertThat(runnel.jobGet(plain)).isEmpty();
        // A completion with output keeps its row, for the output to be read, until the cleaner's round.
        assertThat(events.await(withOutput).type()).isEqualTo(dev.runnel.JobEvent.Type.COMPLETED);
        assertThat(runnel.jobGet(withOutput).orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        assertThat(events.await(discarded).type()).isEqualTo(dev.runnel.JobEvent.Type.DISCARDED);
        assertThat(runnel.jobGet(discarded).orElseThrow().state()).isEqualTo(JobState.DISCARDED);
        assertThat(runnel.isLeader()).isFalse();
    }

    @Test
    void aBacklogLargerThanABatchIsWorkedOffBatchAfterBatch() {
        Runnel inserter = inserter();
        int n = 12_000; // more than two of the cleaner's batches
        for (int from = 0; from < n; from += 4_000) {
            inserter.insertMany(IntStream.range(from, from + 4_000).mapToObj(i -> InsertRequest.of(new TestArgs("b", i))).toList());
        }
        while (true) {
            List<JobRow> claimed = driver.jobClaim(new JobClaimParams("default", 2_000, clock.instant(), "c"));
            if (claimed.isEmpty()) {
                break;
            }
            driver.jobCompleteMany(JobCompleteManyParams.of(claimed, T0));
        }
        Runnel runnel = started(client().retention(JobState.COMPLETED, Duration.ofMinutes(1)));
        clock.advance(Duration.ofMinutes(2));
        Await.until("every completed job to be deleted", () -> runnel.jobCounts().isEmpty());
    }
}
