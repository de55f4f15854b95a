package dev.runnel.web;

import dev.runnel.driver.Driver;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The workflows and batches pages on Postgres, where the driver stores them. */
class PostgresDashboardLinksTest extends DashboardLinksScenario {
    @RegisterExtension
    final PostgresSchemas db = new PostgresSchemas();

    @Override
    protected Driver newDriver(Path dir) {
        return db.newDriver();
    }
}
