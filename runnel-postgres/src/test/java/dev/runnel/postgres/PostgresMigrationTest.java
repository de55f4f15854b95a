package dev.runnel.postgres;

import dev.runnel.driver.Driver;
import dev.runnel.testkit.conformance.MigrationConformance;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresMigrationTest extends MigrationConformance {
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
    protected Set<String> databaseObjects() throws SQLException {
        // Relations (a composite type is one too), types other than row and array types, functions
        // and user triggers of the test's schema.
        String sql = """
                WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = ?)
                SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'i' THEN 'index'
                                      WHEN 'I' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 'v' THEN 'view'
                                      WHEN 'm' THEN 'view' WHEN 'c' THEN 'type' ELSE 'relation' END || ' ' || c.relname
                FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM ns)
                UNION ALL
                SELECT 'type ' || t.typname FROM pg_type t
                WHERE t.typnamespace = (SELECT oid FROM ns) AND t.typrelid = 0 AND t.typcategory <> 'A'
                UNION ALL
                SELECT 'function ' || p.proname FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM ns)
                UNION ALL
                SELECT 'trigger ' || tg.tgname FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
                WHERE c.relnamespace = (SELECT oid FROM ns) AND NOT tg.tgisinternal
                """;
        Set<String> objects = new HashSet<>();
        try (Connection c = PostgresTestSchema.admin(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, db.current());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    objects.add(rs.getString(1));
                }
            }
        }
        return objects;
    }
}
