package dev.runnel.web;

import dev.runnel.driver.Driver;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresDashboardApiTest extends DashboardApiScenario {
    @RegisterExtension
    final PostgresSchemas db = new PostgresSchemas();

    @Override
    protected Driver newDriver(Path dir) {
        return db.newDriver();
    }
}
