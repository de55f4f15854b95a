package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.QueueRow;
import dev.runnel.RunnelConnectException;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.JobClaimParams;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A producer's claims: recovery of a claim whose reply was lost, the backoff, and the limit read. */
class ClaimerTest {
    private final List<String> calls = new ArrayList<>();
    private final List<JobClaimParams> params = new ArrayList<>();
    /** What the next calls answer, in order: a list of jobs or an exception to throw. */
    private final Deque<Object> answers = new ArrayDeque<>();
    private List<QueueRow> queues = List.of();

    private Function<JobClaimParams, List<JobRow>> answering(String name) {
        return p -> {
            calls.add(name);
            params.add(p);
            Object next = answers.removeFirst();
            if (next instanceof RuntimeException e) {
                throw e;
            }
            @SuppressWarnings("unchecked")
            List<JobRow> jobs = (List<JobRow>) next;
            return jobs;
        };
    }

    private Claimer claimer(boolean atMostOnce) {
        return new Claimer("q", "client-1", atMostOnce, false,
                new ClaimClock(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)),
                answering("claim"), answering("recover"), () -> {
                    calls.add("queues");
                    return queues;
                });
    }

    private static JobRow job(long id) {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return new JobRow(id, "k", "{}", JobState.RUNNING, "q", 1, 1, 25, Optional.of(now), List.of("client-1"), now, now,
                Optional.empty(), List.of(), "{}", List.of());
    }

    @Test
    void aClaimReturnsWhatTheDriverClaimed() {
        Claimer c = claimer(false);
        answers.add(List.of(job(1), job(2)));
        Claimer.Claimed claimed = c.claim(5);
        assertThat(claimed.jobs()).extracting(JobRow::id).containsExactly(1L, 2L);
        assertThat(claimed.asked()).isEqualTo(5);
        assertThat(claimed.recovery()).isFalse();
        assertThat(params.getFirst()).extracting(JobClaimParams::queue, JobClaimParams::max, JobClaimParams::clientId)
                .containsExactly("q", 5, "client-1");
        assertThat(c.mayClaimAhead()).isTrue();
    }

    @Test
    void aClaimWithAnUnclearFailureIsRecoveredWithTheSameParamsBeforeAnythingElse() {
        Claimer c = claimer(false);
        answers.add(new IllegalStateException("connection reset after the statement ran"));
        answers.add(List.of(job(7), job(8)));
        answers.add(List.of(job(9)));

        assertThat(c.claim(10)).as("the failed claim").isNull();
        assertThat(c.mayClaimAhead()).as("no jobs claimed ahead while recovering").isFalse();
        Claimer.Claimed recovered = c.claim(3);
        assertThat(recovered.recovery()).isTrue();
        assertThat(recovered.jobs()).extracting(JobRow::id).containsExactly(7L, 8L);
        assertThat(recovered.asked()).as("the lost claim's size, not the room now").isEqualTo(10);
        assertThat(params.get(1)).as("the same claim, its time included").isEqualTo(params.get(0));

        Claimer.Claimed next = c.claim(3);
        assertThat(next.recovery()).isFalse();
        assertThat(calls).containsExactly("claim", "recover", "claim");
    }

    @Test
    void aFailedRecoveryIsTriedAgainWithALongerBackoff() {
        Claimer c = claimer(false);
        answers.add(new IllegalStateException("reply lost"));
        answers.add(new IllegalStateException("still down"));
        answers.add(List.of());
        assertThat(c.claim(10)).isNull();
        assertThat(c.backoffNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        assertThat(c.claim(10)).isNull();
        assertThat(c.backoffNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
        assertThat(c.claim(10).recovery()).isTrue();
        assertThat(calls).containsExactly("claim", "recover", "recover");
    }

    @Test
    void aClaimThatCertainlyDidNothingIsNotRecovered() {
        Claimer c = claimer(false);
        answers.add(new RunnelConnectException("connection refused", null));
        answers.add(new DataRejectedException("refused by a trigger", null));
        answers.add(List.of());
        assertThat(c.claim(10)).isNull();
        assertThat(c.claim(10)).isNull();
        assertThat(c.claim(10).recovery()).isFalse();
        assertThat(calls).containsExactly("claim", "claim", "claim");
    }

    @Test
    void atMostOnceALostClaimIsNotLookedFor() {
        Claimer c = claimer(true);
        answers.add(new IllegalStateException("reply lost"));
        answers.add(List.of());
        assertThat(c.claim(10)).isNull();
        assertThat(c.claim(10).recovery()).isFalse();
        assertThat(calls).containsExactly("claim", "claim");
    }

    @Test
    void theBackoffDoublesFrom200MillisecondsUpToFiveSeconds() {
        assertThat(Claimer.backoff(1)).isEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(Claimer.backoff(2)).isEqualTo(Duration.ofMillis(400).toNanos());
        assertThat(Claimer.backoff(5)).isEqualTo(Duration.ofMillis(3_200).toNanos());
        assertThat(Claimer.backoff(6)).isEqualTo(Duration.ofSeconds(5).toNanos());
        assertThat(Claimer.backoff(60)).isEqualTo(Duration.ofSeconds(5).toNanos());
    }

    @Test
    void aQueueGivenALimitIsClaimedUnderItAndNotAhead() {
        Claimer c = claimer(false);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        queues = List.of(new QueueRow("other", now, now, Optional.empty(), "{}", OptionalInt.of(1), Optional.empty(),
                Optional.empty()));
        c.readLimit();
        assertThat(c.limited()).as("another queue's limit").isFalse();

        queues = List.of(new QueueRow("q", now, now, Optional.empty(), "{}", OptionalInt.of(3), Optional.empty(),
                Optional.empty()));
        c.readLimit();
        assertThat(c.limited()).isTrue();
        assertThat(c.mayClaimAhead()).isFalse();
        answers.add(List.of(job(1)));
        assertThat(c.claim(4).limited()).isTrue();
        assertThat(params.getLast().limited()).isTrue();

        queues = null; // a failed read keeps what was known
        c.readLimit();
        assertThat(c.limited()).isTrue();
    }
}
