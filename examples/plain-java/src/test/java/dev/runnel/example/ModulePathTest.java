package dev.runnel.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the application as a user would, {@code java -p ... -m dev.runnel.example/...}, on the
 * installed Runnel artifacts; and checks that the README shows this project's dependency block and
 * example, so that pasting them works.
 */
class ModulePathTest {
    static final String POSTGRES = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL",
            "postgres://postgres@127.0.0.1:5432/test");

    @TempDir Path dir;

    @Test
    void theReadmeExampleRunsOnTheModulePathOnSqliteAndPostgres() throws Exception {
        String schema = "t_example_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        try (Connection c = postgres(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        }
        try {
            String url = POSTGRES + (POSTGRES.contains("?") ? "&" : "?") + "schema=" + schema;
            Run run = java("dev.runnel.example/dev.runnel.example.Main", dir.resolve("jobs.db").toString(), url);
            assertEquals(0, run.exit, run.output);
            for (String email : List.of("a", "b", "c", "d")) {
                assertTrue(run.output.contains(" sent to " + email + "@example.com"), run.output);
            }
            assertEquals(4, run.output.split(" send_receipt COMPLETED", -1).length - 1, "every job listed once, in pages of 2: "
                    + run.output);
            assertTrue(run.output.contains("sqlite completed 4"), run.output);
            assertTrue(run.output.contains("receipt for order 5 sent to e@example.com"), run.output);
            assertTrue(run.output.contains("postgres COMPLETED"), run.output);
        } finally {
            try (Connection c = postgres(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    @Test
    void aPackageNotOpenedToRunnelFailsSayingWhichLineToAdd() throws Exception {
        Run run = java("dev.runnel.example/dev.runnel.example.unopened.UnopenedCheck");
        assertEquals(0, run.exit, run.output);
        assertTrue(run.output.contains("module dev.runnel.example does not open package dev.runnel.example.unopened"
                + " to dev.runnel.core. Add `opens dev.runnel.example.unopened to dev.runnel.core,"
                + " com.fasterxml.jackson.databind;` to its module-info.java"), run.output);
    }

    @Test
    void theReadmeShowsThisProjectsDependencyBlockAndExample() throws Exception {
        String readme = squash(Files.readString(Path.of("../../README.md")));
        assertTrue(readme.contains(squash(between(Files.readString(Path.of("pom.xml")),
                "<!-- README dependency block start -->", "<!-- README dependency block end -->"))));
        String main = Files.readString(Path.of("src/main/java/dev/runnel/example/Shop.java"));
        assertTrue(readme.contains(squash(between(main, "// --- README example start ---",
                "// --- README example end ---"))));
    }

    private record Run(int exit, String output) {}

    private static Run java(String module, String... args) throws Exception {
        String modulePath = Path.of("target/classes").toAbsolutePath() + File.pathSeparator
                + Files.readString(Path.of("target/module-path.txt")).strip();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=org.xerial.sqlitejdbc", "-p", modulePath, "-m", module));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the application did not end: " + output);
        return new Run(process.exitValue(), output);
    }

    private static Connection postgres() throws Exception {
        URI uri = URI.create(POSTGRES.replaceFirst("^postgresql:", "postgres:"));
        String[] user = (uri.getUserInfo() == null ? "postgres" : uri.getUserInfo()).split(":", 2);
        return DriverManager.getConnection("jdbc:postgresql://" + uri.getHost() + ":"
                + (uri.getPort() < 0 ? 5432 : uri.getPort()) + uri.getPath(), user[0], user.length > 1 ? user[1] : "");
    }

    private static String between(String text, String start, String end) {
        return text.substring(text.indexOf(start) + start.length(), text.indexOf(end));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
