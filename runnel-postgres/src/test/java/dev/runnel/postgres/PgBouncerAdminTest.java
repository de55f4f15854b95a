package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.AdminConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link AdminConformance} through PgBouncer in transaction mode, polling: no listener at all. */
class PgBouncerAdminTest extends AdminConformance {
    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Override
    protected Driver newDriver(Path dir) {
        return PgBouncer.get().driver(db.create(), false);
    }

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        return PgBouncer.get().connection();
    }
}
