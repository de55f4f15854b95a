package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.FailureConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresFailureTest extends FailureConformance {
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

    @Override
    protected String refuseMarkedOutcomesSql() {
        return """
                CREATE FUNCTION refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF (NEW.state = 'completed' AND NEW.args::text LIKE '%%%1$s%%')
                       OR array_to_string(NEW.errors::text[], ' ') LIKE '%%%1$s%%' THEN
                        RAISE EXCEPTION 'refused by the test trigger' USING ERRCODE = '22023';
                    END IF;
                    RETURN NEW;
                END $$;
                CREATE TRIGGER refuse_marked BEFORE UPDATE ON runnel_job FOR EACH ROW EXECUTE FUNCTION refuse_marked();
                """.formatted(MARKER);
    }
}
