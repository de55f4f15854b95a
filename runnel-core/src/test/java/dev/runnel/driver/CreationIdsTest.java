package dev.runnel.driver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobQuery;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bisection of ids by creation time, over a table held in a sorted map (ids with gaps). */
class CreationIdsTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private final TreeMap<Long, Instant> jobs = new TreeMap<>();
    private final AtomicInteger probes = new AtomicInteger();

    private final CreationIds.Prober prober = new CreationIds.Prober() {
        @Override
        public Optional<CreationIds.Probe> firstAtOrAfter(long id) {
            probes.incrementAndGet();
            Map.Entry<Long, Instant> e = jobs.ceilingEntry(id);
            return e == null ? Optional.empty() : Optional.of(new CreationIds.Probe(e.getKey(), e.getValue()));
        }

        @Override
        public long lastId() {
            probes.incrementAndGet();
            return jobs.isEmpty() ? 0 : jobs.lastKey();
        }
    };

    private JobListScan narrow(JobQuery query) throws SQLException {
        return CreationIds.narrow(JobListScan.of(query), query, prober);
    }

    @Test
    void aWindowBecomesTheIdsOfItsJobsWidenedByTheSkew() throws SQLException {
        // A job every 10 s for a day, ids 3 apart (others deleted).
        for (int i = 0; i < 8_640; i++) {
            jobs.put(100L + 3L * i, T0.plusSeconds(10L * i));
        }
        JobListScan scan = narrow(JobQuery.all().createdBetween(T0.plusSeconds(3_600), T0.plusSeconds(7_200)));
        // From the first job at or after 59:00 (job 354) to the last before 2:01:00 (job 725).
        assertThat(scan.fromId()).isGreaterThan(100L + 3L * 353).isLessThanOrEqualTo(100L + 3L * 354);
        assertThat(scan.toId()).isGreaterThanOrEqualTo(100L + 3L * 725).isLessThan(100L + 3L * 726);
        assertThat(probes.get()).as("a few probes, not a walk: %s", probes).isLessThan(24);
    }

    @Test
    void anUnevenRateCostsAtMostABisection() throws SQLException {
        // A burst: half the day's jobs in its first minute, then one a minute.
        long id = 1;
        for (int i = 0; i < 100_000; i++) {
            jobs.put(id++, T0.plusMillis(i / 2));
        }
        for (int i = 1; i <= 1_440; i++) {
            jobs.put(id++, T0.plusSeconds(60L * i));
        }
        JobListScan scan = narrow(JobQuery.all().createdBetween(T0.plusSeconds(3_600 * 12), T0.plusSeconds(3_600 * 13)));
        assertThat(scan.fromId()).isEqualTo(100_000 + 719); // 11:59, the skew before noon
        assertThat(scan.toId()).isEqualTo(100_000 + 780); // before 13:01
        assertThat(probes.get()).isLessThan(2 * 2 * 17 + 2);
    }

    @Test
    void noWindowNoProbe() throws SQLException {
        jobs.put(1L, T0);
        JobQuery query = JobQuery.all().idRange(1, 50);
        assertThat(narrow(query)).isEqualTo(JobListScan.of(query));
        assertThat(probes.get()).isZero();
    }

    @Test
    void aWindowAfterEveryJobOrBeforeEveryJobIsEmpty() throws SQLException {
        for (long id = 1; id <= 100; id++) {
            jobs.put(id, T0.plusSeconds(id));
        }
        // After every job: nothing to walk but ids no job has yet.
        assertThat(narrow(JobQuery.all().createdBetween(T0.plusSeconds(3_600), null)).fromId()).isEqualTo(101);
        assertThat(narrow(JobQuery.all().createdBetween(null, T0.minusSeconds(3_600))).empty()).isTrue();
        assertThat(narrow(JobQuery.all().createdBetween(null, null)).empty()).isFalse();
    }

    @Test
    void aJobWithinTheSkewIsKeptAndOneFarOutOfOrderCanBeMissed() throws SQLException {
        for (long id = 1; id <= 1_000; id++) {
            jobs.put(id, T0.plusSeconds(id));
        }
        jobs.put(500L, T0.plusSeconds(550)); // 50 s late: within the skew
        JobListScan near = narrow(JobQuery.all().createdBetween(T0.plusSeconds(549), T0.plusSeconds(551)));
        assertThat(near.fromId()).isLessThanOrEqualTo(500L);
        assertThat(near.toId()).isGreaterThanOrEqualTo(551L);
        jobs.put(500L, T0.plusSeconds(900)); // 400 s late: the window of its time does not reach its id
        JobListScan far = narrow(JobQuery.all().createdBetween(T0.plusSeconds(899), T0.plusSeconds(901)));
        assertThat(far.fromId()).isGreaterThan(500L);
    }

    @Test
    void theIdRangeAndTheCursorStillBound() throws SQLException {
        for (long id = 1; id <= 1_000; id++) {
            jobs.put(id, T0.plusSeconds(id));
        }
        JobListScan scan = narrow(JobQuery.all().createdBetween(T0, T0.plusSeconds(1_000)).idRange(300, 400));
        assertThat(scan.fromId()).isEqualTo(300);
        assertThat(scan.toId()).isEqualTo(400);
    }
}
