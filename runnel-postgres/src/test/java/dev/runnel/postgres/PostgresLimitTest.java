package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.KeyLimit;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueKeyStragglersParams;
import dev.runnel.driver.QueueRegisterParams;
import dev.runnel.testkit.conformance.LimitConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresLimitTest extends LimitConformance {
    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Override
    protected Driver newDriver(Path dir) {
        return db.newDriver();
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return db.connection();
    }

    /**
     * Only Postgres lets a per-key limit be set while a transaction that inserted into its queue is
     * open (SQLite's writer lock makes the limit wait for it): that job commits without a key,
     * until the scheduler's sweep gives it one.
     */
    @Test
    void aJobCommittedAfterAPerKeyLimitWasSetGetsItsKeyFromTheSweep() throws Exception {
        driver.queueRegister(new QueueRegisterParams(List.of("default"), clock.instant()));
        Runnel inserter = inserter();
        long late;
        try (Connection tx = newConnection(dir)) {
            tx.setAutoCommit(false);
            late = inserter.insert(tx, new TestArgs("late", 0)).id();
            assertThat(driver.queueSetKeyLimit(new QueueKeyLimitParams("default", Optional.of(KeyLimit.byArgs("name", 1)), clock.instant()))).isTrue();
            tx.commit();
        }
        JobClaimParams keyed = new JobClaimParams("default", 10, clock.instant(), "a", false, true);
        assertThat(driver.jobClaim(keyed)).isEmpty();
        assertThat(driver.queueKeyStragglers(new QueueKeyStragglersParams(clock.instant().minus(Duration.ofMinutes(10))))).isEqualTo(1);
        assertThat(driver.jobClaim(keyed)).extracting(j -> j.id()).containsExactly(late);
    }
}
