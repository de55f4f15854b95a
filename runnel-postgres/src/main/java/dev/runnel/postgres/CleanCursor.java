package dev.runnel.postgres;

import dev.runnel.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Where the cleaner's next delete of each final state starts in the finalized index.
 *
 * <p>A deleted job's entry stays in {@code runnel_job_finalized} until vacuum removes it, and a
 * delete that starts at the oldest entry steps over every one of them. While vacuum cannot keep up,
 * or cannot run at all (autovacuum off, or a long transaction that still sees the deleted rows),
 * that dead prefix grows with every job the cleaner deletes: in a 10-million-job churn run on a
 * server without autovacuum, each delete of 5,000 jobs read about 25,000 more pages at the end than
 * at the start, and the cleaner's share of the database's time grew from 3 to 9 seconds in 10. So
 * each delete starts at the newest finalized time that the previous delete of the state reached.
 *
 * <p>Jobs finalized behind that point (their completion written after newer ones were deleted:
 * another client's clock running behind, a completion retried after a lost connection) are
 * reached by a sweep: once every {@link #SWEEP}, on the monotonic clock, the next delete starts
 * from the oldest entry again, and the deletes after it walk forward from there. Such a job may
 * so be deleted up to a minute later than its retention allows, which a retention permits: it is
 * the least time a job is kept.
 */
final class CleanCursor {
    static final Duration SWEEP = Duration.ofMinutes(1);

    /** A state's position (empty: from the oldest entry) and when its last sweep began. */
    private record Position(Optional<Instant> finalizedAt, long sweptNanos) {}

    private final ConcurrentHashMap<JobState, Position> positions = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    CleanCursor() {
        this(System::nanoTime);
    }

    /** A cursor on the given monotonic clock, for tests. */
    CleanCursor(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** The least finalized time the next delete of {@code state} looks at; empty for a sweep from the oldest. */
    Optional<Instant> from(JobState state) {
        Position p = positions.get(state);
        if (p == null || nanoTime.getAsLong() - p.sweptNanos() >= SWEEP.toNanos()) {
            return Optional.empty();
        }
        return p.finalizedAt();
    }

    /**
     * Records a delete of {@code state}'s jobs made from {@code from}: the next starts at the newest
     * finalized time it deleted, or where it started when it deleted nothing.
     */
    void deleted(JobState state, Optional<Instant> from, Optional<Instant> newest) {
        long now = nanoTime.getAsLong();
        positions.compute(state, (s, p) -> new Position(newest.isPresent() ? newest : from,
                from.isEmpty() || p == null ? now : p.sweptNanos()));
    }
}
