package dev.runnel.sqlite;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.FailureConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

class SqliteFailureTest extends FailureConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("jobs.db"));
    }

    @Override
    protected String refuseMarkedOutcomesSql() {
        return """
                CREATE TRIGGER refuse_marked BEFORE UPDATE ON runnel_job FOR EACH ROW
                WHEN (NEW.state = 'completed' AND NEW.args LIKE '%%%1$s%%') OR NEW.errors LIKE '%%%1$s%%'
                BEGIN
                    SELECT RAISE(ABORT, 'refused by the test trigger');
                END
                """.formatted(MARKER);
    }
}
