package dev.runnel.internal;

import dev.runnel.PeriodicJob.CatchUp;
import dev.runnel.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one round of the enqueuer does for one periodic job: the ticks it enqueues, in order, and
 * where missed ones are dropped. A tick is due once it is not after now; due ticks less than the
 * grace late are all enqueued; older ones are missed: {@link CatchUp#SKIP} drops them,
 * {@link CatchUp#LATEST} enqueues the latest of them and drops the rest. Pure: tested alone.
 */
final class PeriodicPlan {
    /** Move on to {@code tick}, enqueuing its job or (a drop of missed ticks) not. */
    record Step(Instant tick, boolean enqueue) {}

    private PeriodicPlan() {}

    /**
     * The steps from {@code firedThrough} (every tick up to it dealt with) at {@code now}, at most
     * {@code max}; the next round takes the rest.
     */
    static List<Step> plan(Schedule schedule, CatchUp catchUp, Instant firedThrough, Instant now, Duration grace,
            int max) {
        List<Step> steps = new ArrayList<>();
        Optional<Instant> first = schedule.next(firedThrough);
        if (first.isEmpty() || first.get().isAfter(now)) {
            return steps;
        }
        Instant from = firedThrough;
        Instant cutoff = now.minus(grace);
        if (first.get().isBefore(cutoff)) {
            // Found by the schedule, not by walking every missed tick: a job firing each second
            // that missed a day would otherwise take 86,400 steps to cross it.
            Instant latestMissed = schedule.previous(cutoff).filter(t -> t.isAfter(firedThrough)).orElse(first.get());
            steps.add(new Step(latestMissed, catchUp == CatchUp.LATEST));
            from = latestMissed;
        }
        for (Optional<Instant> tick = schedule.next(from); tick.isPresent() && !tick.get().isAfter(now)
                && steps.size() < max; tick = schedule.next(tick.get())) {
            steps.add(new Step(tick.get(), true));
        }
        return steps;
    }
}
