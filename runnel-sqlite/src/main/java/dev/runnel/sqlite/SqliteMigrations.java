package dev.runnel.sqlite;

import static dev.runnel.sqlite.MigrationSql.P.*;

import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationFiles;
import dev.runnel.driver.MigrationRecord;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The migration table of {@link SqliteDriver}, from {@code migration.sql}: which migrations are
 * applied, and applying or reverting one in its own {@code BEGIN IMMEDIATE} transaction, so that
 * processes migrating at once apply each migration once.
 */
final class SqliteMigrations {
    /** What a migration that edits table definitions in place runs first. */
    private static final String EDITS_SCHEMA = "PRAGMA writable_schema = ON";
    private final SqliteConnections connections;
    private final SqlFile<MigrationSql> migrationSql;
    private final List<Migration> migrations;

    SqliteMigrations(SqliteConnections connections) {
        this.connections = connections;
        this.migrations = MigrationFiles.load(name -> SqliteMigrations.class.getResourceAsStream("migration/" + name));
        this.migrationSql = SqlFile.parse("migration.sql", MigrationSql.class.getResourceAsStream("migration.sql"),
                MigrationSql.class);
    }

    /** Every migration this driver knows, by ascending version. */
    List<Migration> all() {
        return migrations;
    }

    List<MigrationRecord> applied() {
        return connections.read(s -> {
            Sql migrationTableExists = migrationSql.get(MigrationSql.MigrationTableExists);
            try (ResultSet rs = s.prepare(migrationTableExists.text()).executeQuery()) {
                if (!rs.next() || rs.getInt(1) == 0) {
                    return List.of();
                }
            }
            List<MigrationRecord> records = new ArrayList<>();
            Sql migrationList = migrationSql.get(MigrationSql.MigrationList);
            try (ResultSet rs = s.prepare(migrationList.text()).executeQuery()) {
                while (rs.next()) {
                    records.add(new MigrationRecord(rs.getInt(1), rs.getString(2), Times.fromMicros(rs.getLong(3))));
                }
            }
            return records;
        });
    }

    boolean apply(Migration migration, boolean up) {
        return connections.writeTransaction(s -> {
            Sql migrationTableCreate = migrationSql.get(MigrationSql.MigrationTableCreate);
            s.exec(migrationTableCreate.text());
            Sql migrationGet = migrationSql.get(MigrationSql.MigrationGet);
            PreparedStatement get = s.prepare(migrationGet.text());
            migrationGet.setInt(get, VERSION, migration.version());
            boolean applied;
            try (ResultSet rs = get.executeQuery()) {
                applied = rs.next() && rs.getInt(1) > 0;
            }
            if (applied == up) {
                return false;
            }
            String script = up ? migration.up() : migration.down();
            for (String statement : statements(script)) {
                s.exec(statement);
            }
            if (script.contains(EDITS_SCHEMA)) {
                rereadSchema(s);
            }
            if (up) {
                Sql migrationInsert = migrationSql.get(MigrationSql.MigrationInsert);
                PreparedStatement insert = s.prepare(migrationInsert.text());
                migrationInsert.setInt(insert, VERSION, migration.version());
                migrationInsert.setString(insert, NAME, migration.name());
                migrationInsert.setLong(insert, APPLIED_AT, Times.toMicros(Instant.now()));
                insert.executeUpdate();
            } else {
                Sql migrationDelete = migrationSql.get(MigrationSql.MigrationDelete);
                PreparedStatement delete = s.prepare(migrationDelete.text());
                migrationDelete.setInt(delete, VERSION, migration.version());
                delete.executeUpdate();
                dropMigrationTableIfEmpty(s);
            }
            return true;
        });
    }

    /**
     * After a migration that edited a table's definition in {@code sqlite_schema} (the way SQLite
     * documents for removing CHECK constraints): the schema version moves on by one, so that every
     * other connection reads the schema again before its next statement, and this connection reads
     * it again now ({@code writable_schema = RESET}); it would otherwise go on with the definition it
     * had read.
     */
    private static void rereadSchema(SqliteConnections.Session s) throws SQLException {
        int version;
        try (Statement st = s.connection.createStatement(); ResultSet rs = st.executeQuery("PRAGMA schema_version")) {
            version = rs.getInt(1);
        }
        s.exec("PRAGMA schema_version = " + (version + 1));
        s.exec("PRAGMA writable_schema = RESET");
    }

    /** Once no migration is applied, the migration table goes too: a full down leaves nothing behind. */
    private void dropMigrationTableIfEmpty(SqliteConnections.Session s) throws SQLException {
        Sql migrationAnyApplied = migrationSql.get(MigrationSql.MigrationAnyApplied);
        try (ResultSet rs = s.prepare(migrationAnyApplied.text()).executeQuery()) {
            if (!rs.next() || rs.getInt(1) != 0) {
                return;
            }
        }
        Sql migrationTableDrop = migrationSql.get(MigrationSql.MigrationTableDrop);
        s.exec(migrationTableDrop.text());
    }

    /** Splits a migration script into statements at lines ending in {@code ;}. */
    private static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("--") || trimmed.isEmpty()) {
                continue;
            }
            current.append(line).append('\n');
            // A trigger's body holds statements of its own: it ends at its END.
            boolean trigger = current.toString().stripLeading().regionMatches(true, 0, "CREATE TRIGGER", 0, 14);
            if (trigger ? trimmed.equalsIgnoreCase("END;") : trimmed.endsWith(";")) {
                out.add(current.toString());
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString());
        }
        return out;
    }
}
