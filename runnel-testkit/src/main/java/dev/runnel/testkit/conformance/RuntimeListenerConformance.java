package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertRequest;
import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RuntimeListener;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The runtime listener hears each claim, each write of outcomes and, on the leader, the job
 * counts, with what they did; a listener that throws changes nothing for the jobs.
 */
public abstract class RuntimeListenerConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();

    /** Keeps what it hears. */
    static final class Recorder implements RuntimeListener {
        record Claim(String queue, int requested, int claimed, Duration took) {}

        final List<Claim> claims = new CopyOnWriteArrayList<>();
        final List<Integer> writes = new CopyOnWriteArrayList<>();
        final List<List<JobCount>> counts = new CopyOnWriteArrayList<>();
        final AtomicInteger stopped = new AtomicInteger();

        @Override
        public void claimed(String queue, int requested, int claimed, Duration took) {
            claims.add(new Claim(queue, requested, claimed, took));
        }

        @Override
        public void outcomesWritten(int count, Duration took) {
            assertThat(took).isPositive();
            writes.add(count);
        }

        @Override
        public void jobCounts(List<JobCount> counts) {
            this.counts.add(counts);
        }

        @Override
        public void jobCountsStopped() {
            stopped.incrementAndGet();
        }
    }

    @Test
    void claimsWritesAndTheLeadersCountsAreHeard() {
        Recorder recorder = new Recorder();
        Runnel runnel = started(client().queue("default", 4).listener(events).runtimeListener(recorder)
                .jobCountInterval(Duration.ofSeconds(1))
                .worker(TestArgs.class, job -> {
                    if (job.args().value() < 0) {
                        throw new IllegalStateException("failing on purpose");
                    }
                }));
        List<InsertRequest> requests = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            requests.add(InsertRequest.of(new TestArgs("job-" + i, i == 0 ? -1 : i)));
        }
        runnel.insertMany(requests);
        events.awaitCount(10, Await.DEFAULT_TIMEOUT);

        assertThat(recorder.claims).allSatisfy(c -> {
            assertThat(c.queue()).isEqualTo("default");
            // The 4 free slots at most, and for jobs this short, those claimed ahead of them.
            assertThat(c.requested()).isPositive();
            assertThat(c.claimed()).isBetween(0, c.requested());
            assertThat(c.took()).isPositive();
        });
        assertThat(recorder.claims.stream().mapToInt(Recorder.Claim::claimed).sum()).isEqualTo(10);
        Await.until("10 outcomes written", () -> recorder.writes.stream().mapToInt(Integer::intValue).sum() == 10);

        Await.until("counts with 9 completed jobs", () -> !recorder.counts.isEmpty()
                && count(recorder.counts.getLast(), JobState.COMPLETED) == 9);
        List<JobCount> last = recorder.counts.getLast();
        assertThat(count(last, JobState.RETRYABLE) + count(last, JobState.AVAILABLE)).isEqualTo(1);
        assertThat(recorder.stopped).hasValue(0);

        runnel.stop(Duration.ofSeconds(5));
        assertThat(recorder.stopped).as("a stopping leader says its counts are no longer refreshed").hasValue(1);
    }

    @Test
    void onlyTheLeaderCounts() {
        Recorder leader = new Recorder();
        Recorder follower = new Recorder();
        Runnel first = started(client().clientId("first").runtimeListener(leader).jobCountInterval(Duration.ofSeconds(1)));
        Await.until("the first client leads", first::isLeader);
        Runnel second = started(client().clientId("second").runtimeListener(follower)
                .jobCountInterval(Duration.ofSeconds(1)));
        inserter().insert(new TestArgs("counted", 1));
        Await.until("the leader counts the job", () -> !leader.counts.isEmpty()
                && count(leader.counts.getLast(), JobState.AVAILABLE) == 1);
        assertThat(second.isLeader()).isFalse();
        assertThat(follower.counts).isEmpty();
    }

    @Test
    void aListenerThatThrowsChangesNothingForTheJobs() {
        RuntimeListener broken = new RuntimeListener() {
            @Override
            public void claimed(String queue, int requested, int claimed, Duration took) {
                throw new IllegalStateException("metrics bug");
            }

            @Override
            public void outcomesWritten(int count, Duration took) {
                throw new IllegalStateException("metrics bug");
            }

            @Override
            public void jobCounts(List<JobCount> counts) {
                throw new IllegalStateException("metrics bug");
            }
        };
        Runnel runnel = started(client().queue("default", 2).listener(events).runtimeListener(broken)
                .jobCountInterval(Duration.ofSeconds(1)).worker(TestArgs.class, job -> {}));
        long id = runnel.insert(new TestArgs("fine", 1)).id();
        events.await(id);
        Await.until("the job is stored completed",
                () -> runnel.jobGet(id).orElseThrow().state() == JobState.COMPLETED);
    }

    private static long count(List<JobCount> counts, JobState state) {
        return counts.stream().filter(c -> c.queue().equals("default") && c.state() == state)
                .mapToLong(JobCount::count).sum();
    }
}
