package dev.runnel.sqlite;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.SequenceConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

class SqliteSequenceTest extends SequenceConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("jobs.db"));
    }
}
