package dev.runnel.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives each test its own schema in the test database and drops it, with everything in it, after
 * the test and after the test's own {@code @AfterEach} methods (which stop clients and close
 * drivers). The database is {@code RUNNEL_TEST_POSTGRES_URL}, by default
 * {@value #DEFAULT_URL}; when it cannot be reached the tests fail, they are not skipped.
 *
 * <pre>{@code @RegisterExtension final PostgresTestSchema db = new PostgresTestSchema();}</pre>
 */
final class PostgresTestSchema implements AfterEachCallback {
    static final String DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test";
    static final String URL = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL", DEFAULT_URL);

    private final List<String> created = new ArrayList<>();
    private String current;

    /** Creates a new, empty schema ({@code t_} and random hex) and makes it the current one. */
    String create() {
        String name = "t_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        try (Connection c = admin(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test schema in " + PostgresUrl.parse(URL) + ": "
                    + e.getMessage(), e);
        }
        created.add(name);
        current = name;
        return name;
    }

    /** The schema the last {@link #create()} made. */
    String current() {
        if (current == null) {
            throw new IllegalStateException("no test schema yet");
        }
        return current;
    }

    /** A driver on a new schema, unmigrated. */
    PostgresDriver newDriver() {
        return driver(create());
    }

    /** A driver on {@code schema} of the test database. */
    static PostgresDriver driver(String schema) {
        return PostgresDriver.builder().url(URL).schema(schema).maxPoolSize(4).build();
    }

    /** A plain JDBC connection whose search_path is the current schema, as an application's would be. */
    Connection connection() throws SQLException {
        Connection c = admin();
        try (Statement st = c.createStatement()) {
            st.execute("SET search_path TO " + current());
        }
        return c;
    }

    /** A plain JDBC connection to the test database. */
    static Connection admin() throws SQLException {
        PostgresUrl url = PostgresUrl.parse(URL);
        return DriverManager.getConnection(url.jdbcUrl(), url.connectionProperties("runnel-test", 5));
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        if (created.isEmpty()) {
            return;
        }
        try (Connection c = admin(); Statement st = c.createStatement()) {
            for (String name : created) {
                st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            }
        }
        created.clear();
    }
}
