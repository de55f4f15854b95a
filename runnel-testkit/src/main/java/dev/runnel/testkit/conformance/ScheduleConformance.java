package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobScheduleParams;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scheduler's statement: due scheduled and retryable jobs become available, the longest due first. */
public abstract class ScheduleConformance extends DriverConformance {
    /** The scheduler's time in these tests, a while after the jobs were claimed at {@code T0}. */
    private static final Instant NOW = T0.plusSeconds(100).plusNanos(250_000);

    private int schedule(int limit) {
        return driver.jobScheduleDue(new JobScheduleParams(NOW, limit));
    }

    @Test
    void movesOnlyDueScheduledAndRetryableJobsAndLeavesEveryOtherStateAlone() {
        JobMaker make = new JobMaker(driver);
        List<JobRow> due = List.of(
                make.make(JobState.SCHEDULED, NOW.minusSeconds(10), T0),
                make.make(JobState.RETRYABLE, NOW.minusSeconds(5), T0),
                // Due at the scheduler's time exactly.
                make.make(JobState.SCHEDULED, NOW, T0),
                make.make(JobState.RETRYABLE, NOW, T0));
        List<JobRow> notDue = List.of(
                // 1 µs after the scheduler's time.
                make.make(JobState.SCHEDULED, NOW.plusNanos(1_000), T0),
                make.make(JobState.RETRYABLE, NOW.plusNanos(1_000), T0),
                make.make(JobState.SCHEDULED, NOW.plusSeconds(3600), T0));
        // Every other state, each long past its scheduled time.
        List<JobRow> others = new ArrayList<>();
        for (JobState state : JobState.values()) {
            if (state != JobState.SCHEDULED && state != JobState.RETRYABLE) {
                others.add(make.make(state, T0.minusSeconds(60), T0));
            }
        }
        // An available job not due yet either: not the scheduler's to touch.
        others.add(make.make(JobState.AVAILABLE, NOW.plusSeconds(60), T0));

        assertThat(schedule(100)).isEqualTo(due.size());
        for (JobRow job : due) {
            JobRow row = make.stored(job.id());
            assertThat(row.state()).as("job %d, due at %s", job.id(), job.scheduledAt()).isEqualTo(JobState.AVAILABLE);
            // Only the state moves: the time, the attempt and its errors stay.
            assertThat(row).usingRecursiveComparison().ignoringFields("state").isEqualTo(job);
        }
        for (JobRow job : notDue) {
            assertThat(make.stored(job.id())).as("job %d, due at %s", job.id(), job.scheduledAt()).isEqualTo(job);
        }
        for (JobRow job : others) {
            assertThat(make.stored(job.id())).as("%s job %d", job.state(), job.id()).isEqualTo(job);
        }
        assertThat(schedule(100)).isZero();
        // Made available, they are claimed as any other.
        assertThat(driver.jobClaim(new JobClaimParams(due.get(1).queue(), 10, NOW, "client-a")))
                .extracting(JobRow::id).containsExactly(due.get(1).id());
    }

    @Test
    void honoursItsLimitTheLongestDueFirst() {
        JobMaker make = new JobMaker(driver);
        // Made in an order that is neither their due order nor their state's.
        Map<String, JobRow> jobs = new LinkedHashMap<>();
        jobs.put("a", make.make(JobState.SCHEDULED, NOW.minusSeconds(1), T0));
        jobs.put("b", make.make(JobState.RETRYABLE, NOW.minusSeconds(50), T0));
        jobs.put("c", make.make(JobState.SCHEDULED, NOW.minusSeconds(30), T0));
        jobs.put("d", make.make(JobState.RETRYABLE, NOW.minusNanos(1_000), T0));
        jobs.put("e", make.make(JobState.SCHEDULED, NOW.minusSeconds(40), T0));
        jobs.put("f", make.make(JobState.RETRYABLE, NOW.minusSeconds(20), T0));
        jobs.put("later", make.make(JobState.SCHEDULED, NOW.plusSeconds(1), T0));

        assertThat(schedule(2)).isEqualTo(2);
        assertThat(available(jobs)).containsExactlyInAnyOrder("b", "e");
        assertThat(schedule(3)).isEqualTo(3);
        assertThat(available(jobs)).containsExactlyInAnyOrder("b", "e", "c", "f", "a");
        assertThat(schedule(1)).isEqualTo(1);
        assertThat(available(jobs)).containsExactlyInAnyOrder("b", "e", "c", "f", "a", "d");
        assertThat(schedule(10)).isZero();
        assertThat(make.stored(jobs.get("later").id()).state()).isEqualTo(JobState.SCHEDULED);
    }

    private List<String> available(Map<String, JobRow> jobs) {
        List<String> names = new ArrayList<>();
        jobs.forEach((name, job) -> {
            if (driver.jobGet(job.id()).orElseThrow().state() == JobState.AVAILABLE) {
                names.add(name);
            }
        });
        return names;
    }
}
