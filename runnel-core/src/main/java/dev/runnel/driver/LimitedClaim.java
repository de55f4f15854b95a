package dev.runnel.driver;

import dev.runnel.JobRow;
import dev.runnel.RateLimit;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A claim under a queue's limits, as every driver makes it inside one transaction that holds the
 * queue's row (Postgres: locked; SQLite: the writer lock): how many jobs the rate limit leaves
 * room for, which claim statement runs (per key or not) and with what, and the start times kept
 * afterwards. The global limit is the claim statement's own arithmetic. A driver supplies the
 * statements ({@link Steps}); this class holds the algorithm once. Internal SPI.
 */
public final class LimitedClaim {
    private LimitedClaim() {}

    /**
     * A queue's limits as a limited claim reads them with the queue's row: its rate limit and the
     * start times kept for it (microseconds, oldest first), its per-key limit and rate per key.
     */
    public record Limits(Optional<RateLimit> rate, long[] starts, OptionalInt keyLimit, Optional<RateLimit> keyRate) {
        /** No row read: a queue not registered yet, claimed up to the batch size. */
        public static final Limits NONE = new Limits(Optional.empty(), new long[0], OptionalInt.empty(), Optional.empty());

        /**
         * The limits in the columns every driver's lock-and-read statement returns: rate limit and
         * its period (1, 2), per-key limit (4), rate per key and its period (5, 6); the starts in
         * column 3 are the driver's to decode.
         */
        public static Limits read(ResultSet rs, long[] starts) throws SQLException {
            return new Limits(QueueLimits.rateLimit(rs, 1), starts, QueueLimits.optionalInt(rs, 4),
                    QueueLimits.rateLimit(rs, 5));
        }
    }

    /**
     * What a keyed claim is bound with: the per-key limit, and under a rate per key the start of
     * its window ({@code rateSinceMicros}) and the jobs it allows ({@code rateJobs}); without one,
     * values no key reaches ({@link Long#MAX_VALUE} and {@link Integer#MAX_VALUE}), from which the
     * SQL drivers' keyed claims know to read no key's start times.
     */
    public record Keyed(int limit, long rateSinceMicros, int rateJobs) {}

    /** The statements of one driver's limited claim, all run in the claim's transaction. */
    public interface Steps {
        /** Claims up to {@code room} jobs under the global limit. */
        List<JobRow> claim(int room) throws SQLException;

        /** Claims up to {@code room} jobs under the per-key limit {@code keyed} (and the global limit). */
        List<JobRow> claimKeyed(int room, Keyed keyed) throws SQLException;

        /** Adds the starts of {@code claimed}, at {@code nowMicros}, to their keys' kept starts under {@code rate}. */
        void keyRateStarted(RateLimit rate, List<JobRow> claimed, long nowMicros) throws SQLException;

        /** Keeps {@code starts} as the queue's start times. */
        void queueRateStarted(long[] starts) throws SQLException;
    }

    /** Claims under {@code limits} at {@code nowMicros}, at most {@code max} jobs; the rows unsorted. */
    public static List<JobRow> claim(Limits limits, int max, long nowMicros, Steps steps) throws SQLException {
        int room = limits.rate().isPresent()
                ? Math.min(max, QueueLimits.rateRoom(limits.rate().get(), limits.starts(), nowMicros))
                : max;
        if (room == 0) {
            return new ArrayList<>();
        }
        List<JobRow> rows;
        if (limits.keyLimit().isPresent()) {
            Optional<RateLimit> keyRate = limits.keyRate();
            rows = steps.claimKeyed(room, new Keyed(limits.keyLimit().getAsInt(),
                    keyRate.map(r -> nowMicros - r.periodMicros()).orElse(Long.MAX_VALUE),
                    keyRate.map(RateLimit::jobs).orElse(Integer.MAX_VALUE)));
            if (keyRate.isPresent() && !rows.isEmpty()) {
                steps.keyRateStarted(keyRate.get(), rows, nowMicros);
            }
        } else {
            rows = steps.claim(room);
        }
        if (limits.rate().isPresent() && !rows.isEmpty()) {
            steps.queueRateStarted(QueueLimits.afterStarting(limits.rate().get(), limits.starts(), nowMicros, rows.size()));
        }
        return rows;
    }
}
