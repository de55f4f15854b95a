package dev.runnel.driver;

import dev.runnel.JobQuery;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns a listing's creation-time window into ids, so that a driver walks only the ids of that
 * window instead of every job newer than it. Ids are drawn as jobs are inserted, and a job's
 * creation time is read from its inserting client's clock just before, so ids rise with creation
 * times but for clocks that disagree and inserts that wait: each edge is found by bisecting the
 * ids through the primary key (a few dozen one-row reads), widened by {@link #SKEW}, and the
 * window's own filter still decides which jobs in between match. A job created more than
 * {@link #SKEW} out of order with its id (a client whose clock is that far off) can be missed at a
 * window's edge. Internal SPI.
 */
public final class CreationIds {
    /**
     * How far a job's creation time may be out of order with its id and still be found: {@value}
     * seconds. At 10 million jobs a day, a minute is 7,000 jobs to step over at each edge (a few
     * milliseconds); without the bisection, a window at noon stepped over the 4.8 million jobs
     * created after it (0.7 to 0.9 s on a 10-million-job table).
     */
    static final long SKEW_SECONDS = 60;
    /** {@link #SKEW_SECONDS} as a duration. */
    public static final Duration SKEW = Duration.ofSeconds(SKEW_SECONDS);

    private CreationIds() {}

    /** The first job at or after an id, as a driver reads it. */
    public record Probe(long id, Instant createdAt) {}

    /** How a driver reads the job table for the search, each through the primary key. */
    public interface Prober {
        /** The job with the lowest id at or after {@code id}, if there is one. */
        Optional<Probe> firstAtOrAfter(long id) throws SQLException;

        /** The highest id in the table, 0 when it is empty. */
        long lastId() throws SQLException;
    }

    /** Reads a creation time from a result column, as the driver stores it. */
    @FunctionalInterface
    public interface InstantColumn {
        Instant read(ResultSet rs, int column) throws SQLException;
    }

    /**
     * A prober over two prepared statements: {@code firstAtOrAfter}, prepared from
     * {@code firstSql}, takes an id as parameter {@code idParam} and returns the first job's id
     * and creation time (read by {@code createdAt}); {@code lastId} returns the highest id, or none.
     */
    public static Prober prober(Sql firstSql, SqlFile.Param idParam, PreparedStatement firstAtOrAfter,
            PreparedStatement lastId, InstantColumn createdAt) {
        return new Prober() {
            @Override
            public Optional<Probe> firstAtOrAfter(long id) throws SQLException {
                firstSql.setLong(firstAtOrAfter, idParam, id);
                try (ResultSet rs = firstAtOrAfter.executeQuery()) {
                    return rs.next() ? Optional.of(new Probe(rs.getLong(1), createdAt.read(rs, 2))) : Optional.empty();
                }
            }

            @Override
            public long lastId() throws SQLException {
                try (ResultSet rs = lastId.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0;
                }
            }
        };
    }

    /**
     * {@code scan} narrowed to the ids that can hold jobs created in {@code query}'s window; the
     * scan itself when the query has no window.
     */
    public static JobListScan narrow(JobListScan scan, JobQuery query, Prober prober) throws SQLException {
        if (scan.empty() || query.createdFrom().isEmpty() && query.createdBefore().isEmpty()) {
            return scan;
        }
        long from = scan.fromId();
        long to = Math.min(scan.toId(), prober.lastId()); // ids end far below the bound when there is none
        if (query.createdFrom().isPresent() && from <= to) {
            from = firstCreatedAtOrAfter(query.createdFrom().get().minus(SKEW), from, to, prober);
        }
        if (query.createdBefore().isPresent() && from <= to) {
            to = firstCreatedAtOrAfter(query.createdBefore().get().plus(SKEW), from, to, prober) - 1;
        }
        return new JobListScan(scan.descending(), from, to, scan.reverse());
    }

    /**
     * The lowest id {@code x} in {@code [lo, hi + 1]} from which the first job was created at or
     * after {@code time} (or there is none up to {@code hi}): below it, every job was created
     * before. Exact when creation times rise with ids. A search by interpolation (jobs arrive at
     * a fairly steady rate, so a few probes land near the edge) every other step, and by halves
     * between, so that an uneven rate costs at most twice a bisection's probes.
     */
    static long firstCreatedAtOrAfter(Instant time, long lo, long hi, Prober prober) throws SQLException {
        long a = lo;
        long b = hi + 1; // candidates lie in [a, b]; b means "none up to hi"
        Instant atA = null;
        Instant atB = null;
        for (int step = 0; a < b; step++) {
            long mid;
            if (atA == null) {
                mid = a;
            } else if (atB == null) {
                mid = b - 1;
            } else if (step % 2 == 0 && atB.isAfter(atA)) {
                double share = (double) Duration.between(atA, time).toNanos() / Duration.between(atA, atB).toNanos();
                mid = Math.clamp(a + (long) (share * (b - a)), a, b - 1);
            } else {
                mid = a + (b - a) / 2;
            }
            Optional<Probe> probe = prober.firstAtOrAfter(mid);
            if (probe.isEmpty() || probe.get().id() >= b) {
                b = mid; // no job between mid and b: mid is as good as b
            } else if (!probe.get().createdAt().isBefore(time)) {
                b = mid;
                atB = probe.get().createdAt();
            } else {
                a = probe.get().id() + 1; // no job lies between mid and the probe's id
                atA = probe.get().createdAt();
            }
        }
        return a;
    }
}
