package dev.runnel.cli;

import dev.runnel.postgres.PostgresDriver;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code runnel workflows} and {@code runnel batches} on a schema of its own in the test database
 * ({@code RUNNEL_TEST_POSTGRES_URL}, by default the local one), dropped after each test. The
 * tests that insert workflows and batches run where the driver stores them.
 */
class PostgresLinkCommandsTest extends LinkCommandsScenario {
    private static final String URL = System.getenv()
            .getOrDefault("RUNNEL_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test");

    private final String schema = "t_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());

    @Override
    protected String url() {
        return URL + (URL.contains("?") ? "&" : "?") + "schema=" + schema;
    }

    @Override
    protected void cleanUp() throws Exception {
        try (PostgresDriver admin = PostgresDriver.builder().url(URL).maxPoolSize(1).build();
                Connection c = admin.dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
