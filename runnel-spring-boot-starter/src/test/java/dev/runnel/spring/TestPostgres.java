package dev.runnel.spring;

import java.net.URI;
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
 * The test database ({@code RUNNEL_TEST_POSTGRES_URL}, by default {@value #DEFAULT_URL}) as Spring
 * properties, and a schema of its own per test, dropped after it. Unreachable, the tests fail.
 */
final class TestPostgres implements AfterEachCallback {
    static final String DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test";
    static final URI URL = URI.create(System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL", DEFAULT_URL)
            .replaceFirst("^postgresql:", "postgres:"));

    private final List<String> created = new ArrayList<>();

    static String host() {
        return URL.getHost();
    }

    static int port() {
        return URL.getPort() < 0 ? 5432 : URL.getPort();
    }

    static String jdbcUrl(String host, int port) {
        return "jdbc:postgresql://" + host + ":" + port + URL.getPath();
    }

    static String user() {
        String info = URL.getUserInfo();
        return info == null ? "postgres" : info.split(":", 2)[0];
    }

    static String password() {
        String info = URL.getUserInfo();
        return info == null || !info.contains(":") ? "" : info.split(":", 2)[1];
    }

    /** Spring's DataSource properties for the test database, through {@code host:port}. */
    static String[] dataSource(String host, int port) {
        return new String[] {"spring.datasource.url=" + jdbcUrl(host, port), "spring.datasource.username=" + user(),
                "spring.datasource.password=" + password()};
    }

    /** A new, empty schema, dropped after the test. */
    String createSchema() throws SQLException {
        String name = "t_spring_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + name);
        }
        created.add(name);
        return name;
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(host(), port()), user(), password());
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            for (String name : created) {
                st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            }
        }
        created.clear();
    }
}
