package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobInsertParams;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fast counts on a table larger than their sample: estimates from the sample for completed
 * jobs, exact counts for the rest, and the sample's estimates for every state when counting
 * exactly takes longer than allowed. 40,000 jobs, 3 queues; the sample is made small instead of
 * the table large.
 */
class PostgresCountsTest {
    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    private PostgresDriver driver;

    @BeforeEach
    void fill() {
        driver = db.newDriver();
        new Migrator(driver).up();
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        List<JobInsertParams> batch = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            batch.add(new JobInsertParams("k", "{\"n\":" + i + "}", "q" + i % 3, 1, i % 4 == 0 ? JobState.SCHEDULED
                    : JobState.AVAILABLE, t, i % 4 == 0 ? t.plusSeconds(3_600) : t, 25, List.of(), "{}"));
            if (batch.size() == 5_000) {
                driver.jobInsertMany(batch);
                batch.clear();
            }
        }
        // Seven of them running.
        driver.jobClaim(new dev.runnel.driver.JobClaimParams("q0", 7, t, "client-a"));
    }

    @AfterEach
    void close() {
        driver.close();
    }

    private static Map<String, Long> byKey(List<JobCount> counts) {
        return counts.stream().collect(Collectors.toMap(c -> c.queue() + "/" + c.state().dbName(), JobCount::count));
    }

    @Test
    void aSmallSampleEstimatesAndTheOtherStatesAreCountedExactly() {
        Map<String, Long> truth = byKey(driver.jobCountByQueueAndState(JobCountParams.EXACT));
        assertThat(truth).containsEntry("q0/scheduled", 3_334L).containsEntry("q1/available", 10_000L);
        // The whole table is well over 50 pages: a sample of 50.
        List<JobCount> fast = driver.counts(50, Duration.ofMinutes(1)).count(JobCountParams.FAST);
        assertThat(fast).allSatisfy(c -> assertThat(c.exact()).as("%s", c).isTrue());
        assertThat(byKey(fast)).isEqualTo(truth);
    }

    @Test
    void estimatesStandInWhenCountingExactlyTakesTooLong() {
        Map<String, Long> truth = byKey(driver.jobCountByQueueAndState(JobCountParams.EXACT));
        // Counting 40,000 index entries takes longer than a millisecond: the sample's estimates stand in.
        for (Duration timeout : List.of(Duration.ofMillis(1), Duration.ZERO)) {
            PostgresCounts counts = driver.counts(200, timeout);
            for (int reading = 0; reading < 2; reading++) {
                List<JobCount> fast = counts.count(JobCountParams.FAST);
                assertThat(fast).as("timeout %s", timeout).isNotEmpty()
                        .allSatisfy(c -> assertThat(c.exact()).as("%s", c).isEqualTo(c.state() == JobState.RUNNING));
                assertThat(fast).filteredOn(c -> c.state() == JobState.RUNNING).extracting(JobCount::count)
                        .as("running jobs, always exact").containsExactly(7L);
                Map<String, Long> estimated = byKey(fast);
                assertThat(estimated.keySet()).isEqualTo(truth.keySet());
                truth.forEach((key, n) -> assertThat(estimated.get(key)).as(key).isBetween(n / 2, n * 2));
                assertThat(estimated.values().stream().mapToLong(Long::longValue).sum()).isBetween(30_000L, 50_000L);
            }
        }
    }

    @Test
    void aTableNoLargerThanTheSampleIsCountedExactlyInOneReading() {
        Map<String, Long> truth = byKey(driver.jobCountByQueueAndState(JobCountParams.EXACT));
        List<JobCount> fast = driver.counts(1_000_000, Duration.ofMillis(1)).count(JobCountParams.FAST);
        assertThat(fast).allSatisfy(c -> assertThat(c.exact()).isTrue());
        assertThat(byKey(fast)).isEqualTo(truth);
    }
}
