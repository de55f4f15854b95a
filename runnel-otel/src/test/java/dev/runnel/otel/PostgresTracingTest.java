package dev.runnel.otel;

import dev.runnel.driver.Driver;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresTracingTest extends TracingScenario {
    @RegisterExtension
    final PostgresSchemas db = new PostgresSchemas();

    @Override
    protected Driver newDriver(Path dir) {
        return db.newDriver();
    }

    @Override
    protected Driver sameDatabase(Path dir) {
        return db.sameDatabase();
    }
}
