package dev.runnel.web;

import dev.runnel.postgres.PostgresDriver;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A schema of its own for each test in the test database ({@code RUNNEL_TEST_POSTGRES_URL}, by
 * default the local one), dropped after the test and its own {@code @AfterEach} methods.
 */
final class PostgresSchemas implements AfterEachCallback {
    static final String URL = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test");

    private final List<String> created = new ArrayList<>();

    /** A driver on a new schema, which its migration creates. */
    PostgresDriver newDriver() {
        String name = "t_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        created.add(name);
        return PostgresDriver.builder().url(URL).schema(name).maxPoolSize(4).build();
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        try (PostgresDriver admin = PostgresDriver.builder().url(URL).maxPoolSize(1).build();
                Connection c = admin.dataSource().getConnection(); Statement st = c.createStatement()) {
            for (String name : created) {
                st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            }
        }
        created.clear();
    }
}
