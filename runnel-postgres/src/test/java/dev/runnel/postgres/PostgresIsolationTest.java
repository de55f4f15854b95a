package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobScheduleParams;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two drivers on two schemas of one database share nothing. */
class PostgresIsolationTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    static JobInsertParams job(String queue, JobState state, Instant scheduledAt) {
        return new JobInsertParams("k", "{}", queue, 1, state, T0, scheduledAt, 25, List.of(), "{}");
    }

    @Test
    void jobsOfOneSchemaAreInvisibleToAnother() {
        try (PostgresDriver a = db.newDriver(); PostgresDriver b = db.newDriver()) {
            new Migrator(a).up();
            new Migrator(b).up();
            long id = a.jobInsertMany(List.of(job("default", JobState.AVAILABLE, T0))).getFirst().id();
            a.jobInsertMany(List.of(job("default", JobState.SCHEDULED, T0.plusSeconds(5))));

            assertThat(b.jobList(JobQuery.all())).isEmpty();
            assertThat(b.jobCountByState()).isEmpty();
            assertThat(b.jobGet(id)).isEmpty();
            assertThat(b.jobClaim(new JobClaimParams("default", 10, T0, "b"))).isEmpty();
            assertThat(b.jobScheduleDue(new JobScheduleParams(T0.plusSeconds(10), 100))).isZero();

            assertThat(a.jobList(JobQuery.all())).hasSize(2);
            assertThat(a.jobClaim(new JobClaimParams("default", 10, T0, "a"))).extracting(r -> r.id()).containsExactly(id);
            assertThat(a.jobScheduleDue(new JobScheduleParams(T0.plusSeconds(10), 100))).isEqualTo(1);
        }
    }

    @Test
    void migrationsOfOneSchemaLeaveAnotherAlone() {
        try (PostgresDriver a = db.newDriver(); PostgresDriver b = db.newDriver()) {
            new Migrator(a).up();
            assertThat(b.migrationApplied()).isEmpty();
            new Migrator(b).up();
            Migrator migratorA = new Migrator(a);
            migratorA.down(migratorA.latestVersion());
            assertThat(a.migrationApplied()).isEmpty();
            assertThat(new Migrator(b).currentVersion()).isEqualTo(migratorA.latestVersion());
            b.jobInsertMany(List.of(job("default", JobState.AVAILABLE, T0)));
        }
    }
}
