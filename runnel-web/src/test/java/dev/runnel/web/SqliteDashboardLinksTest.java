package dev.runnel.web;

import dev.runnel.driver.Driver;
import dev.runnel.sqlite.SqliteDriver;
import java.nio.file.Path;

class SqliteDashboardLinksTest extends DashboardLinksScenario {
    @Override
    protected Driver newDriver(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }
}
