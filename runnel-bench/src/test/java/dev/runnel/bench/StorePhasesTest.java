package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.driver.Driver;
import dev.runnel.redis.RedisDriver;
import dev.runnel.testkit.LocalRedis;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StorePhasesTest {
    @Test
    void eachPhaseDoesAllOfItsWorkBeforeItsMarkAndLeavesTheJobsCompleted() {
        try (Driver driver = RedisDriver.open(LocalRedis.shared().freshUrl())) {
            new Migrator(driver).up();
            List<String> marks = new ArrayList<>();
            List<Long> available = new ArrayList<>();
            StorePhases.Counts counts = StorePhases.run(driver, "q", 3_000, phase -> {
                marks.add(phase);
                available.add(driver.jobCountByState().stream().filter(c -> c.state() == JobState.AVAILABLE)
                        .mapToLong(dev.runnel.JobCount::count).sum());
            });
            assertThat(marks).containsExactly("warm", "insert_amo", "claim_amo", "insert_alo", "claim_alo", "complete_alo");
            assertThat(available).containsExactly(0L, 3_000L, 0L, 3_000L, 0L, 0L);
            assertThat(counts).isEqualTo(new StorePhases.Counts(3_000, 3_000, 3_000));
        }
    }
}
