package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * {@link dev.runnel.testkit.conformance.MigrationConformance} with every migration applied and
 * reverted through PgBouncer in transaction mode. The test's own look at the tables goes direct:
 * it names them without their schema, through a search_path that a transaction pooler would not
 * keep.
 */
class PgBouncerMigrationTest extends PostgresMigrationTest {
    @Override
    protected Driver newDriver(Path dir) {
        return PgBouncer.get().driver(db.create(), false);
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return db.connection();
    }
}
