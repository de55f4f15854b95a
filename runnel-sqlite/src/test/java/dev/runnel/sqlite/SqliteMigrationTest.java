package dev.runnel.sqlite;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.MigrationConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

class SqliteMigrationTest extends MigrationConformance {
    @Override
    protected Driver newDriver(Path dir) {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("jobs.db"));
    }

    @Override
    protected Set<String> databaseObjects() throws SQLException {
        Set<String> objects = new HashSet<>();
        try (Connection c = newConnection(dir); Statement st = c.createStatement()) {
            // Tables, indexes, views and triggers; sqlite_ names are SQLite's own.
            try (ResultSet rs = st.executeQuery("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")) {
                while (rs.next()) {
                    objects.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
            // An AUTOINCREMENT table's counter is a row of sqlite_sequence, which outlives its tables.
            boolean counters;
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'")) {
                counters = rs.next() && rs.getInt(1) > 0;
            }
            if (counters) {
                try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_sequence")) {
                    while (rs.next()) {
                        objects.add("sequence " + rs.getString(1));
                    }
                }
            }
        }
        return objects;
    }
}
