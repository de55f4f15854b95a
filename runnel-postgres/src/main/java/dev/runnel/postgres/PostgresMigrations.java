package dev.runnel.postgres;

import static dev.runnel.postgres.MigrationSql.P.*;

import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationFiles;
import dev.runnel.driver.MigrationRecord;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver's migrations and its migration table, {@code {schema}.runnel_migration}. Applying one
 * is a single transaction that holds an advisory lock on the schema, so concurrent migrators
 * (several processes starting with autoMigrate) apply each migration exactly once.
 *
 * <p>A migration runs with no socket timeout: it may rightly take long (an index built on a big
 * table, a wait for another process's migration), which the timeout meant for Runnel's short
 * statements would cut, closing the connection mid-migration.
 */
final class PostgresMigrations {
    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile<MigrationSql> sql;
    private final List<Migration> migrations;

    PostgresMigrations(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("migration.sql", MigrationSql.class.getResourceAsStream("migration.sql"),
                MigrationSql.class).withSchema(schema.quoted());
        this.migrations = MigrationFiles.load(name -> PostgresMigrations.class.getResourceAsStream("migration/" + name))
                .stream()
                .map(m -> new Migration(m.version(), m.name(), m.up().replace("{schema}", schema.quoted()),
                        m.down().replace("{schema}", schema.quoted())))
                .toList();
    }

    /** Every migration, its SQL already naming this driver's schema. */
    List<Migration> all() {
        return migrations;
    }

    List<MigrationRecord> applied() {
        return connections.run("reading applied migrations", c -> {
            if (!queryBoolean(c.prepareStatement(sql.get(MigrationSql.MigrationTableExists).text()))) {
                return List.of();
            }
            List<MigrationRecord> records = new ArrayList<>();
            try (PreparedStatement list = c.prepareStatement(sql.get(MigrationSql.MigrationList).text());
                    ResultSet rs = list.executeQuery()) {
                while (rs.next()) {
                    records.add(new MigrationRecord(rs.getInt(1), rs.getString(2),
                            rs.getObject(3, OffsetDateTime.class).toInstant()));
                }
            }
            return records;
        });
    }

    boolean apply(Migration migration, boolean up) {
        String operation = (up ? "applying" : "reverting") + " migration " + migration.name();
        return connections.transaction(operation, c -> withoutSocketTimeout(c, () -> {
            Sql migrationLock = sql.get(MigrationSql.MigrationLock);
            try (PreparedStatement lock = c.prepareStatement(migrationLock.text())) {
                migrationLock.setLong(lock, KEY, schema.migrationLockKey());
                lock.execute();
            }
            Sql schemaExists = sql.get(MigrationSql.SchemaExists);
            PreparedStatement exists = c.prepareStatement(schemaExists.text());
            schemaExists.setString(exists, SCHEMA, schema.name());
            if (!queryBoolean(exists)) {
                execute(c, sql.get(MigrationSql.SchemaCreate).text());
            }
            execute(c, sql.get(MigrationSql.MigrationTableCreate).text());
            // Checked again under the lock: another process may have applied it since the caller looked.
            Sql migrationGet = sql.get(MigrationSql.MigrationGet);
            PreparedStatement get = c.prepareStatement(migrationGet.text());
            migrationGet.setInt(get, VERSION, migration.version());
            if (queryBoolean(get) == up) {
                return false;
            }
            // pgjdbc sends a script of several statements in one call, all inside this transaction.
            execute(c, up ? migration.up() : migration.down());
            Sql recording = sql.get(up ? MigrationSql.MigrationInsert : MigrationSql.MigrationDelete);
            try (PreparedStatement record = c.prepareStatement(recording.text())) {
                recording.setInt(record, VERSION, migration.version());
                if (up) {
                    recording.setString(record, NAME, migration.name());
                }
                record.executeUpdate();
            }
            // Once no migration is applied the table goes too, so that a full down leaves nothing
            // behind; under the lock, a migrator waiting to apply one creates it again.
            if (!up && !queryBoolean(c.prepareStatement(sql.get(MigrationSql.MigrationAnyApplied).text()))) {
                execute(c, sql.get(MigrationSql.MigrationTableDrop).text());
            }
            return true;
        }));
    }

    @FunctionalInterface
    private interface Steps<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code steps} with the socket timeout of {@code c} lifted, and restores it before the
     * connection goes back to its pool (an application's pool would not know to). The commit that
     * follows is short and runs under the usual timeout.
     */
    private static <T> T withoutSocketTimeout(Connection c, Steps<T> steps) throws SQLException {
        int timeout = c.getNetworkTimeout();
        if (timeout == 0) {
            return steps.run();
        }
        // pgjdbc applies the timeout to the socket at once and ignores the executor.
        c.setNetworkTimeout(Runnable::run, 0);
        T result;
        try {
            result = steps.run();
        } catch (SQLException | RuntimeException e) {
            try {
                c.setNetworkTimeout(Runnable::run, timeout);
            } catch (SQLException restore) {
                e.addSuppressed(restore);
            }
            throw e;
        }
        c.setNetworkTimeout(Runnable::run, timeout);
        return result;
    }

    /** Runs a single-row boolean query and closes the statement. */
    private static boolean queryBoolean(PreparedStatement statement) throws SQLException {
        try (statement; ResultSet rs = statement.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    private static void execute(Connection c, String script) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(script);
        }
    }
}
