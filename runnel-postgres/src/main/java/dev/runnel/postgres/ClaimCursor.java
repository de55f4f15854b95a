package dev.runnel.postgres;

import dev.runnel.JobRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Where the next claim of each queue starts in the fetch index.
 *
 * <p>A claimed job leaves its entry in the partial fetch index until vacuum removes it, and a scan
 * from the start of the queue steps over every one of those entries. In a 100k-job drain that was
 * about 860 buffer reads per claim of 40 jobs, against 8 for a scan that starts where the last
 * claim ended. So while a queue is backed up (each claim came back full from ahead of the
 * position), the next claim starts after the last job taken, in the claim's order (priority,
 * scheduled time, id); the same statement takes jobs behind the position when those ahead do not
 * fill the batch.
 *
 * <p>Jobs that become available behind that point (a retry falling due, a new job of a higher
 * priority, one that another client's failed claim released) are reached when the position is
 * dropped: at once when a claim does not fill up from ahead of the position, and otherwise
 * {@link #REFRESH} after the first claim of the run. That second is measured on the monotonic
 * clock, not on the client's clock (which tests stop and move, and which can jump), so in a
 * backlog, priority holds within a second of real time.
 */
final class ClaimCursor {
    static final Duration REFRESH = Duration.ofSeconds(1);

    /** The start of every queue: priorities are 1 to 4, so every job sorts after it. */
    static final Position START = new Position(0, Instant.EPOCH, 0, 0);

    /** A claim position, and when (a monotonic reading) the run of full claims that reached it began. */
    record Position(int priority, Instant scheduledAt, long id, long sinceNanos) {}

    private final ConcurrentHashMap<String, Position> positions = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    ClaimCursor() {
        this(System::nanoTime);
    }

    /** A cursor on the given monotonic clock, for tests. */
    ClaimCursor(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Where the next claim of {@code queue} starts: after the last full claim, or at the start. */
    Position from(String queue) {
        Position p = positions.get(queue);
        if (p == null || nanoTime.getAsLong() - p.sinceNanos() >= REFRESH.toNanos()) {
            return START;
        }
        return p;
    }

    /**
     * Records a claim made from {@code from}: one filled entirely from ahead of the position moves
     * it past its last job ({@code claimed} is in claim order); any other drops it.
     */
    void claimed(String queue, Position from, List<JobRow> claimed, int max) {
        if (claimed.size() < max || from != START && !after(claimed.getFirst(), from)) {
            drop(queue);
            return;
        }
        JobRow last = claimed.getLast();
        long since = from == START ? nanoTime.getAsLong() : from.sinceNanos();
        positions.put(queue, new Position(last.priority(), last.scheduledAt(), last.id(), since));
    }

    /** Whether {@code job} sorts after {@code p} in claim order: it was taken from ahead of it. */
    private static boolean after(JobRow job, Position p) {
        if (job.priority() != p.priority()) {
            return job.priority() > p.priority();
        }
        int byTime = job.scheduledAt().compareTo(p.scheduledAt());
        return byTime != 0 ? byTime > 0 : job.id() > p.id();
    }

    /** The next claim of {@code queue} starts from the top. */
    void drop(String queue) {
        positions.remove(queue);
    }
}
