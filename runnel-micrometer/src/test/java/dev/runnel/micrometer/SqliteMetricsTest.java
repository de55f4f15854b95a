package dev.runnel.micrometer;

import dev.runnel.driver.Driver;
import dev.runnel.sqlite.SqliteDriver;
import java.nio.file.Path;

class SqliteMetricsTest extends MetricsScenario {
    @Override
    protected Driver newDriver(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }
}
