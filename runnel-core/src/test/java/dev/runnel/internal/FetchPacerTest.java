package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The producer's pacing rules, on a clock the test moves by hand. */
class FetchPacerTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final Duration COOLDOWN = Duration.ofMillis(100);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration SAFETY = Duration.ofSeconds(10);

    /** No jitter: every wait is exactly its setting. */
    private static FetchPacer pacer(long now) {
        return new FetchPacer(COOLDOWN, POLL, SAFETY, now, d -> d);
    }

    @Test
    void theFirstClaimIsDueAtOnce() {
        FetchPacer p = pacer(1_000 * MS);
        assertThat(p.pollDueAt()).isEqualTo(1_000 * MS);
        assertThat(p.signalDueAt()).isLessThanOrEqualTo(1_000 * MS);
        assertThat(p.refilling()).isFalse();
    }

    @Test
    void aSignalWaitsTheQuickCooldownUntilTwoSignalledClaimsInARowFoundNothing() {
        FetchPacer p = pacer(0);
        long t = 1_000 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 0, true, false);
        assertThat(p.signalDueAt()).as("after one empty signalled claim").isEqualTo(t + 5 * MS);

        t += 10 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 0, true, false);
        assertThat(p.signalDueAt()).as("after two in a row: the whole cooldown").isEqualTo(t + 100 * MS);

        long signalled = t;
        t += 200 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 0, false, false);
        assertThat(p.signalDueAt()).as("an empty poll neither counts nor clears, nor delays a signal")
                .isEqualTo(signalled + 100 * MS);

        t += 200 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 3, true, false);
        assertThat(p.signalDueAt()).as("a claim that got jobs clears the count").isEqualTo(t + 5 * MS);
    }

    @Test
    void aSignalJustAfterAnEmptyPollIsDueAtOnceButOneAfterAPollThatFoundJobsWaits() {
        FetchPacer p = pacer(0);
        long t = 1_000 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 0, false, false);
        assertThat(p.signalDueAt()).as("after an empty poll").isLessThanOrEqualTo(t);

        t += 1_000 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 2, false, false);
        assertThat(p.signalDueAt()).as("after a poll that found jobs").isEqualTo(t + 5 * MS);
    }

    @Test
    void whileTheClientHearsNotificationsThePollIsTheSafetyNetAndWithoutThemThePollInterval() {
        FetchPacer p = pacer(0);
        long t = 1_000 * MS;
        p.fetching(t, true);
        p.claimed(t, 10, 0, false, false);
        assertThat(p.pollDueAt()).as("listening").isEqualTo(t + 10_000 * MS);

        t += 10_000 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 0, false, false);
        assertThat(p.pollDueAt()).as("not listening").isEqualTo(t + 1_000 * MS);

        p.fetching(t, true);
        p.pollWithin(t + 2_000 * MS);
        assertThat(p.pollDueAt()).as("after the notifications stopped").isEqualTo(t + 3_000 * MS);
        p.pollWithin(t + 2_500 * MS);
        assertThat(p.pollDueAt()).as("never later than it was").isEqualTo(t + 3_000 * MS);

        FetchPacer shorter = new FetchPacer(COOLDOWN, POLL, Duration.ofMillis(10), 0, d -> d);
        shorter.fetching(t, true);
        assertThat(shorter.pollDueAt()).as("a safety poll shorter than the poll interval: the poll interval")
                .isEqualTo(t + 1_000 * MS);
    }

    @Test
    void theQuickCooldownIsNeverLongerThanTheCooldown() {
        FetchPacer p = new FetchPacer(Duration.ofMillis(2), POLL, SAFETY, 0, d -> d);
        p.fetching(50 * MS, false);
        assertThat(p.signalDueAt()).isEqualTo(52 * MS);
    }

    @Test
    void aFullClaimRefillsOnceHalfTheRoomIsFree() {
        FetchPacer p = pacer(0);
        p.fetching(0, false);
        p.claimed(0, 10, 10, false, false);
        assertThat(p.refilling()).isTrue();
        assertThat(FetchPacer.refillWanted(10)).isEqualTo(5);
        assertThat(FetchPacer.refillWanted(1)).isEqualTo(1);
        assertThat(FetchPacer.refillWanted(510)).isEqualTo(255);

        p.fetching(MS, false);
        p.claimed(MS, 10, 9, false, false);
        assertThat(p.refilling()).as("a claim short of full means the queue is drained").isFalse();
    }

    @Test
    void shortJobsWaitTheCooldownForTheRefillAndLongJobsOneMillisecond() {
        FetchPacer p = pacer(0);
        long fetched = 1_000 * MS;
        p.fetching(fetched, false);
        p.claimed(fetched, 10, 10, false, false);
        assertThat(p.refillPatience(fetched + 2 * MS, 100_000)).as("short jobs, freed soon after the claim")
                .isEqualTo(100 * MS);
        assertThat(p.refillPatience(fetched + 2 * MS, 20 * MS)).as("jobs of 20 ms on average")
                .isEqualTo(MS);
        assertThat(p.refillPatience(fetched + 20 * MS, 100_000)).as("the first slot freed 20 ms after the claim")
                .isEqualTo(MS);
        assertThat(p.refillPatience(fetched + 19 * MS, 19 * MS)).as("just under both").isEqualTo(100 * MS);

        FetchPacer quick = new FetchPacer(Duration.ofNanos(300_000), POLL, SAFETY, 0, d -> d);
        quick.fetching(fetched, false);
        assertThat(quick.refillPatience(fetched + 30 * MS, 30 * MS)).as("never longer than the cooldown")
                .isEqualTo(300_000);
    }

    @Test
    void aFailedClaimIsRetriedAfterItsBackoffNotAsARefill() {
        FetchPacer p = pacer(0);
        p.fetching(0, false);
        p.claimed(0, 10, 10, false, false);
        p.fetching(5 * MS, false);
        p.failed(6 * MS, 200 * MS);
        assertThat(p.refilling()).isFalse();
        assertThat(p.pollDueAt()).isEqualTo(206 * MS);
    }

    @Test
    void aRecoveryIsFollowedByAnOrdinaryWait() {
        FetchPacer p = pacer(0);
        p.fetching(0, false);
        p.claimed(0, 10, 10, false, false);
        p.fetching(MS, false);
        p.recovered(10, false);
        assertThat(p.refilling()).as("the lost claim's size says nothing of the queue").isFalse();
        assertThat(p.pollDueAt()).isEqualTo(MS + 1_000 * MS);
    }

    @Test
    void aLimitedClaimIsRetriedEveryTenMillisecondsAHundredTimesAfterOneThatGotJobs() {
        FetchPacer p = pacer(0);
        long t = 0;
        p.fetching(t, false);
        p.claimed(t, 10, 0, false, true);
        assertThat(p.pollDueAt()).as("an idle limited queue polls as any queue").isEqualTo(1_000 * MS);

        p.fetching(t, false);
        p.claimed(t, 10, 2, false, true);
        assertThat(p.refilling()).as("slots free as jobs anywhere end: claim again as ours do").isTrue();
        assertThat(p.pollDueAt()).isEqualTo(10 * MS);
        for (int i = 1; i <= FetchPacer.LIMITED_RETRIES; i++) {
            t += 10 * MS;
            p.fetching(t, false);
            p.claimed(t, 10, 0, false, true);
            assertThat(p.pollDueAt()).as("empty limited claim %d", i).isEqualTo(t + 10 * MS);
        }
        t += 10 * MS;
        p.fetching(t, false);
        p.claimed(t, 10, 0, false, true);
        assertThat(p.pollDueAt()).as("past the retries: the poll interval").isEqualTo(t + 1_000 * MS);
    }

    @Test
    void theLimitsAreReadOnceASecondWhileIdleAndEveryFiveSecondsWhileLimited() {
        long t = 0;
        FetchPacer p = pacer(t);
        assertThat(p.limitCheckDue(t + 999 * MS, false, true)).isFalse();
        assertThat(p.limitCheckDue(t + 1_000 * MS, false, true)).isTrue();
        assertThat(p.limitCheckDue(t + 1_500 * MS, false, true)).as("just read").isFalse();
        assertThat(p.limitCheckDue(t + 5_000 * MS, false, false)).as("a busy unlimited queue is never asked")
                .isFalse();
        assertThat(p.limitCheckDue(t + 5_999 * MS, true, false)).as("limited: five seconds after the last read")
                .isFalse();
        assertThat(p.limitCheckDue(t + 6_000 * MS, true, false)).isTrue();
    }

    @Test
    void theCooldownAndThePollCarryJitter() {
        FetchPacer p = new FetchPacer(COOLDOWN, POLL, SAFETY, 0, d -> d + d / 10);
        p.fetching(0, false);
        assertThat(p.pollDueAt()).isEqualTo(1_100 * MS);
        p.claimed(0, 10, 0, true, false);
        p.claimed(0, 10, 0, true, false);
        assertThat(p.signalDueAt()).isEqualTo(110 * MS);

        for (int i = 0; i < 1_000; i++) {
            long j = FetchPacer.jittered(1_000 * MS);
            assertThat(j).isBetween(1_000 * MS, 1_100 * MS);
        }
        assertThat(FetchPacer.jittered(5)).as("too short to jitter").isEqualTo(5);
    }
}
