package dev.runnel.cli;

import static dev.runnel.cli.Cli.exitsTwoWithOneLine;
import static dev.runnel.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.cli.Cli.Result;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The benchmark commands that make and drop a Postgres schema drop only one they made: {@code public}
 * and a schema of the user's are refused with one line and exit 2, and everything in them is kept.
 */
class BenchSchemaCommandTest {
    private static final String POSTGRES_URL = System.getenv()
            .getOrDefault("RUNNEL_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test");

    private static Connection connect() throws SQLException {
        URI uri = URI.create(POSTGRES_URL);
        String user = uri.getUserInfo() == null ? "postgres" : uri.getUserInfo().split(":")[0];
        String password = uri.getUserInfo() != null && uri.getUserInfo().contains(":")
                ? uri.getUserInfo().split(":", 2)[1] : "";
        return DriverManager.getConnection("jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath(),
                user, password);
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static String name(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    @Test
    void queryBenchRefusesThePublicSchemaBeforeConnecting() {
        exitsTwoWithOneLine(run("query-bench", "--database-url", POSTGRES_URL, "--schema", "public", "--jobs", "10000"),
                "schema public is not a benchmark's to drop");
        exitsTwoWithOneLine(run("query-bench", "--database-url", POSTGRES_URL, "--schema", "pg_catalog"),
                "schema pg_catalog");
        exitsTwoWithOneLine(run("query-bench", "--database-url", POSTGRES_URL, "--schema", "information_schema"),
                "schema information_schema");
    }

    @Test
    void queryBenchRefusesASchemaItDidNotMakeAndKeepsWhatIsInIt() throws SQLException {
        String theirs = name("users_data_");
        execute("CREATE SCHEMA " + theirs);
        try {
            execute("CREATE TABLE " + theirs + ".keep_me (x int)");
            execute("INSERT INTO " + theirs + ".keep_me VALUES (1), (2)");
            exitsTwoWithOneLine(run("query-bench", "--database-url", POSTGRES_URL, "--schema", theirs, "--jobs", "10000",
                    "--runs", "1"), "schema " + theirs + " exists and was not made by runnel query-bench");
            exitsTwoWithOneLine(run("query-bench", "--database-url", POSTGRES_URL, "--schema", theirs, "--jobs", "10000",
                    "--runs", "1", "--reuse"), "was not made by runnel query-bench");
            assertThat(count("SELECT count(*) FROM " + theirs + ".keep_me")).isEqualTo(2);
            assertThat(count("SELECT count(*) FROM pg_tables WHERE schemaname = '" + theirs + "'")).isEqualTo(1);
        } finally {
            execute("DROP SCHEMA " + theirs + " CASCADE");
        }
    }

    @Test
    void queryBenchDropsTheSchemaItMadeAndReusesOneItKept() throws SQLException {
        String own = name("runnel_qb_");
        try {
            Result kept = run("query-bench", "--database-url", POSTGRES_URL, "--schema", own, "--jobs", "10000", "--runs",
                    "1", "--keep");
            // 0 when every listing met its target, 1 when one did not: either way the run finished.
            assertThat(kept.code()).as(kept.err()).isIn(0, 1);
            assertThat(count("SELECT count(*) FROM " + own + ".runnel_job")).isEqualTo(10_000);

            Result reused = run("query-bench", "--database-url", POSTGRES_URL, "--schema", own, "--jobs", "10000",
                    "--runs", "1", "--reuse");
            assertThat(reused.code()).as(reused.err()).isIn(0, 1);
            assertThat(reused.out()).contains("reusing the 10,000 jobs in schema " + own);
            assertThat(count("SELECT count(*) FROM pg_namespace WHERE nspname = '" + own + "'")).isZero();
        } finally {
            execute("DROP SCHEMA IF EXISTS " + own + " CASCADE");
        }
    }

    @Test
    void benchDropsItsOwnSchemaWhateverSchemaTheUrlNames() throws SQLException {
        long before = count("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'runnel_bench_%'");
        long publicTables = count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'");
        Result r = run("bench", "--database-url", POSTGRES_URL + "?schema=public", "--num-total-jobs", "2000");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(count("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'runnel_bench_%'")).isEqualTo(before);
        assertThat(count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).isEqualTo(publicTables);
    }
}
