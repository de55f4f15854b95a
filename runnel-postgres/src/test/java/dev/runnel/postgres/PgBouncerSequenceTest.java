package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.SequenceConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SequenceConformance} through PgBouncer in transaction mode, polling: what an outcome
 * releases is written in one transaction, which the pooler keeps on one server connection.
 */
class PgBouncerSequenceTest extends SequenceConformance {
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
