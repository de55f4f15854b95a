package dev.runnel.otel;

import dev.runnel.driver.Driver;
import dev.runnel.sqlite.SqliteDriver;
import java.nio.file.Path;

class SqliteTracingTest extends TracingScenario {
    @Override
    protected Driver newDriver(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }

    @Override
    protected Driver sameDatabase(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }
}
