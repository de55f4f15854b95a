package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.PeriodicJob.CatchUp;
import dev.runnel.Schedule;
import dev.runnel.internal.PeriodicPlan.Step;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PeriodicPlanTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Schedule EVERY_10S = Schedule.every(Duration.ofSeconds(10));
    private static final Duration GRACE = Duration.ofMinutes(1);

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    @Test
    void nothingIsDueBeforeTheNextTick() {
        assertThat(PeriodicPlan.plan(EVERY_10S, CatchUp.SKIP, T0, at(9), GRACE, 100)).isEmpty();
        assertThat(PeriodicPlan.plan(EVERY_10S, CatchUp.SKIP, T0, at(10), GRACE, 100))
                .containsExactly(new Step(at(10), true));
    }

    @Test
    void ticksLessThanTheGraceLateAreAllEnqueuedUnderEitherPolicy() {
        for (CatchUp policy : CatchUp.values()) {
            assertThat(PeriodicPlan.plan(EVERY_10S, policy, T0, at(65), GRACE, 100)).containsExactly(
                    new Step(at(10), true), new Step(at(20), true), new Step(at(30), true), new Step(at(40), true),
                    new Step(at(50), true), new Step(at(60), true));
        }
    }

    @Test
    void ticksMoreThanTheGraceLateAreDroppedUnderSkipAndTheLatestOfThemRunsUnderLatest() {
        // At 1:40 the cutoff is 0:40: 0:10 to 0:30 are missed, 0:40 (exactly a minute late) is not.
        assertThat(PeriodicPlan.plan(EVERY_10S, CatchUp.SKIP, T0, at(100), GRACE, 100)).containsExactly(
                new Step(at(30), false), new Step(at(40), true), new Step(at(50), true), new Step(at(60), true),
                new Step(at(70), true), new Step(at(80), true), new Step(at(90), true), new Step(at(100), true));
        assertThat(PeriodicPlan.plan(EVERY_10S, CatchUp.LATEST, T0, at(100), GRACE, 100).getFirst())
                .isEqualTo(new Step(at(30), true));
    }

    @Test
    void aLongDowntimeIsCrossedInOneStepNotTickByTick() {
        Schedule everySecond = Schedule.every(Duration.ofSeconds(1));
        Instant now = T0.plus(Duration.ofDays(30));
        var steps = PeriodicPlan.plan(everySecond, CatchUp.LATEST, T0, now, GRACE, 100);
        assertThat(steps.getFirst()).isEqualTo(new Step(now.minus(GRACE).minusSeconds(1), true));
        assertThat(steps).hasSize(1 + 61); // then every tick within the grace, both ends included
        Schedule hourly = Schedule.cron("0 * * * *");
        assertThat(PeriodicPlan.plan(hourly, CatchUp.SKIP, T0, T0.plus(Duration.ofDays(30)).plusSeconds(300), GRACE,
                100)).containsExactly(new Step(T0.plus(Duration.ofDays(30)), false));
        // Less than the grace late, the last tick still runs.
        assertThat(PeriodicPlan.plan(hourly, CatchUp.SKIP, T0, T0.plus(Duration.ofDays(30)).plusSeconds(30), GRACE,
                100)).containsExactly(new Step(T0.plus(Duration.ofDays(30)).minusSeconds(3600), false),
                        new Step(T0.plus(Duration.ofDays(30)), true));
    }

    @Test
    void aTickAfterFiredThroughIsTheFirstAndTheMaximumIsKept() {
        assertThat(PeriodicPlan.plan(EVERY_10S, CatchUp.SKIP, at(10), at(45), GRACE, 2))
                .containsExactly(new Step(at(20), true), new Step(at(30), true));
        // A job added between ticks (fired_through not on a tick) fires from the next tick.
        assertThat(PeriodicPlan.plan(EVERY_10S, CatchUp.SKIP, at(5), at(10), GRACE, 100))
                .containsExactly(new Step(at(10), true));
    }
}
