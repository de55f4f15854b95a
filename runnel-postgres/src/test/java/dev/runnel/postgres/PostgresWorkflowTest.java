package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.WorkflowConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresWorkflowTest extends WorkflowConformance {
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
}
