package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.KeyLimit;
import dev.runnel.driver.Driver;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueRegisterParams;
import dev.runnel.testkit.conformance.LimitConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SqliteLimitTest extends LimitConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("jobs.db"));
    }

    /** The key trigger costs every insert a lookup: it exists only while some queue has a per-key limit. */
    @Test
    void theKeyTriggerExistsOnlyWhileSomeQueueHasAPerKeyLimit() throws Exception {
        driver.queueRegister(new QueueRegisterParams(List.of("a", "b"), clock.instant()));
        assertThat(keyTrigger()).isFalse();
        driver.queueSetKeyLimit(new QueueKeyLimitParams("a", Optional.of(KeyLimit.byArgs("name", 1)), clock.instant()));
        driver.queueSetKeyLimit(new QueueKeyLimitParams("b", Optional.of(KeyLimit.byArgs("name", 1)), clock.instant()));
        assertThat(keyTrigger()).isTrue();
        driver.queueSetKeyLimit(new QueueKeyLimitParams("a", Optional.empty(), clock.instant()));
        assertThat(keyTrigger()).isTrue();
        driver.queueSetKeyLimit(new QueueKeyLimitParams("b", Optional.empty(), clock.instant()));
        assertThat(keyTrigger()).isFalse();
    }

    private boolean keyTrigger() throws SQLException {
        try (Connection c = newConnection(dir);
                ResultSet rs = c.createStatement().executeQuery(
                        "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'runnel_job_key_inserted'")) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }
}
