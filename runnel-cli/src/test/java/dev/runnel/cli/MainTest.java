package dev.runnel.cli;

import static dev.runnel.cli.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.cli.Cli.Result;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    private static final String POSTGRES_URL = System.getenv()
            .getOrDefault("RUNNEL_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test");

    @TempDir
    Path dir;

    private static long lines(String s) {
        return s.lines().filter(l -> !l.isBlank()).count();
    }

    @Test
    void badUrlSchemeExitsTwoWithOneLine() {
        Result r = run("migrate", "up", "--database-url", "nope://x");
        assertThat(r.code()).isEqualTo(2);
        assertThat(lines(r.err())).isEqualTo(1);
        assertThat(r.err()).contains("nope").doesNotContain("Exception");
    }

    @Test
    void malformedUrlExitsTwo() {
        Result r = run("migrate", "list", "--database-url", "not a url");
        assertThat(r.code()).isEqualTo(2);
        assertThat(lines(r.err())).isEqualTo(1);
    }

    @Test
    void unknownFlagAndMissingValueExitTwoWithOneLine() {
        Result unknown = run("bench", "--no-such-flag");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(lines(unknown.err())).isEqualTo(1);
        Result missing = run("bench", "--database-url");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(lines(missing.err())).isEqualTo(1);
        Result badDuration = run("bench", "--duration", "soon");
        assertThat(badDuration.code()).isEqualTo(2);
        assertThat(badDuration.err()).contains("soon");
    }

    /**
     * The test server's URL with another user or database or more parameters, and the password
     * "secret", which the server never asks for (or rejects): it must appear nowhere.
     */
    private static String postgres(String user, String database, String query) {
        URI test = URI.create(POSTGRES_URL);
        String testUser = test.getUserInfo() == null ? "postgres" : test.getUserInfo().split(":")[0];
        return "postgres://" + (user != null ? user : testUser) + ":secret@" + server() + "/"
                + (database != null ? database : test.getPath().substring(1)) + query;
    }

    /** The test server's {@code host:port}. */
    private static String server() {
        URI test = URI.create(POSTGRES_URL);
        return test.getHost() + ":" + (test.getPort() < 0 ? 5432 : test.getPort());
    }

    @Test
    void anUnreachableDatabaseExitsTwoWithOneLineFast() {
        assertConnectFails("postgres://postgres:secret@127.0.0.1:1/test", "at 127.0.0.1:1/test: Connection refused");
        assertConnectFails(postgres(null, "runnel_no_such_db", ""),
                "at " + server() + "/runnel_no_such_db: database \"runnel_no_such_db\" does not exist");
        // With password authentication the server does not say whether the role exists.
        assertConnectFails(postgres("runnel_ghost", null, ""), "\"runnel_ghost\"");
        assertConnectFails(postgres(null, null, "?sslmode=bogus"), "sslmode value: bogus");
        // bench and drain too: they run in a schema of their own, which must not be waited for.
        String refused = "postgres://postgres:secret@127.0.0.1:1/test";
        assertCommandFailsToConnect("Connection refused", "bench", "--database-url", refused, "--num-total-jobs", "10");
        assertCommandFailsToConnect("Connection refused", "drain", "--database-url", refused, "--jobs", "10");
        assertCommandFailsToConnect("Connection refused", "churn", "--database-url", refused, "--jobs", "10");
    }

    private static void assertConnectFails(String url, String reason) {
        assertCommandFailsToConnect(reason, "migrate", "list", "--database-url", url);
    }

    private static void assertCommandFailsToConnect(String reason, String... args) {
        long start = System.nanoTime();
        Result r = run(args);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as(String.join(" ", args)).isLessThan(Duration.ofSeconds(5));
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("runnel: cannot connect to Postgres ").contains(reason)
                .doesNotContain("secret").doesNotContain("Exception").doesNotContain("HikariPool");
        assertThat(r.err().lines().count()).isEqualTo(1);
    }

    @Test
    void anUnreachableDatabaseWritesOneLineToTheRealStderr() throws Exception {
        // In a process of its own, so that log lines written to the real stderr would be seen too.
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "migrate", "list", "--database-url", "postgres://postgres:secret@127.0.0.1:1/test"));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(err).isEqualTo(2);
        assertThat(out).isEmpty();
        assertThat(err).isEqualTo("runnel: cannot connect to Postgres at 127.0.0.1:1/test: Connection refused"
                + System.lineSeparator());
    }

    @Test
    void migrateSqlPrintsEveryMigrationFromItsOwnProcess() throws Exception {
        // The command prints its SQL in one piece, without a line's end: the process must flush it.
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "migrate", "sql", "--database-url", "sqlite://" + dir.resolve("s.db")));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(out).contains("-- 001_create_jobs.up.sql").contains("CREATE TABLE runnel_job")
                .contains("-- 012_job_checks_as_comparisons.up.sql");
    }

    @Test
    void migrateUpListSqlDown() {
        String url = "sqlite://" + dir.resolve("m.db");
        Result up = run("migrate", "up", "--database-url", url);
        assertThat(up.code()).isZero();
        assertThat(up.out()).containsPattern("applied \\[1(, \\d+)*\\], now at version \\d+");
        assertThat(run("migrate", "list", "--database-url", url).out()).contains("001_create_jobs").contains("applied");
        assertThat(run("migrate", "sql", "--database-url", url).out()).contains("CREATE TABLE runnel_job");
        Result down = run("migrate", "down", "--database-url", url);
        assertThat(down.out()).containsPattern("reverted \\[\\d+\\]");
        assertThat(run("migrate", "list", "--database-url", url).out()).contains("pending");
    }

    @Test
    void benchBurndownIsExact() {
        Result r = run("bench", "--database-url", "sqlite://" + dir.resolve("b.db"), "--num-total-jobs", "5000", "--json");
        assertThat(r.code()).isZero();
        String json = Cli.lastJson(r);
        assertThat(json).contains("\"jobs_worked\":5000").contains("\"duplicates\":0").contains("\"missing\":0");
        assertThat(r.out()).contains("bench: total jobs worked [ 5000 ], total jobs inserted [ 5000 ]")
                .contains("bench: inserting 5000 jobs before working them")
                .contains("bench: exactly once: each of the 5000 jobs inserted was worked once");
    }

    @Test
    void indexesSaySqliteHasNoneAndRefuseAnUnknownName() {
        String url = "sqlite://" + dir.resolve("i.db");
        Result list = run("indexes", "list", "--database-url", url);
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains("no search indexes");
        Result unknown = run("indexes", "create", "tags", "--database-url", url);
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("no search index named 'tags' (kind, args)");
        Result unsupported = run("indexes", "create", "kind", "--database-url", url);
        assertThat(unsupported.code()).isEqualTo(2);
        assertThat(lines(unsupported.err())).isEqualTo(1);
    }

    @Test
    void aCommandWithoutItsSubcommandListsThem() {
        Result r = run("migrate");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("runnel: migrate needs one of its commands:").contains("up").contains("down")
                .contains("list").contains("sql");
    }

    @Test
    void helpKeepsEachUrlWholeOnItsLine() {
        StringWriter out = new StringWriter();
        new picocli.CommandLine(new Main()).setOut(new PrintWriter(out, true)).execute("jobs", "list", "--help");
        assertThat(out.toString()).contains("postgres://user:password@host:5432/db?schema=s")
                .contains("sqlite://path/to/file.db");
    }

    @Test
    void benchToppedUpForADurationIsExact() {
        Result r = run("bench", "--database-url", "sqlite://:memory:", "--duration", "1s", "--max-workers", "50", "--json");
        assertThat(r.code()).isZero();
        String json = Cli.lastJson(r);
        assertThat(json).contains("\"duplicates\":0").contains("\"missing\":0").doesNotContain("\"jobs_worked\":0,");
    }

    @Test
    void benchAtMostOnceAndBareLoopAreExact() {
        for (String mode : new String[] {"--at-most-once", "--bare"}) {
            Result r = run("bench", "--database-url", "sqlite://" + dir.resolve("m" + mode.length() + ".db"),
                    "--num-total-jobs", "3000", mode, "--json");
            assertThat(r.code()).as(mode + ": " + r.err()).isZero();
            assertThat(Cli.lastJson(r)).contains("\"jobs_worked\":3000").contains("\"duplicates\":0").contains("\"missing\":0");
        }
    }

    @Test
    void drainOnSqliteAuditsExactlyOnce() {
        Result r = run("drain", "--database-url", "sqlite://" + dir.resolve("d.db"), "--jobs", "2000",
                "--processes", "2", "--threads", "10", "--warmup", "200", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Cli.lastJson(r)).contains("\"duplicates\":0").contains("\"missing\":0")
                .contains("\"attempt_not_one\":0").contains("\"not_completed\":0").contains("\"statements_per_job\":null");
        assertThat(r.out()).contains("jobs/s");
    }

    @Test
    void drainAtMostOnceAuditsToo() {
        Result r = run("drain", "--database-url", "sqlite://" + dir.resolve("amo.db"), "--jobs", "2000",
                "--processes", "2", "--threads", "10", "--warmup", "0", "--at-most-once", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Cli.lastJson(r)).contains("\"mode\":\"at_most_once\"").contains("\"duplicates\":0")
                .contains("\"missing\":0").contains("\"attempt_not_one\":0").contains("\"not_completed\":0");
    }

    @Test
    void drainOnPostgresReportsCostPerJob() {
        String url = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test");
        Result r = run("drain", "--database-url", url, "--jobs", "3000", "--processes", "2", "--threads", "20",
                "--warmup", "500", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        String json = Cli.lastJson(r);
        assertThat(json).contains("\"driver\":\"postgres\"").contains("\"duplicates\":0").contains("\"missing\":0")
                .contains("\"attempt_not_one\":0").contains("\"server_cpu_ms_per_job\":0.").contains("\"cpu_ms_per_job\":");
    }

    @Test
    void drainWhoseWorkersKeepNoCompletedJobsCompletesThemWithoutAnUpdateOnPostgres() {
        String url = System.getenv().getOrDefault("RUNNEL_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test");
        Result r = run("drain", "--database-url", url, "--jobs", "3000", "--processes", "2", "--threads", "20",
                "--warmup", "500", "--delete-completed", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        String json = Cli.lastJson(r);
        assertThat(json).contains("\"delete_completed\":true").contains("\"duplicates\":0").contains("\"missing\":0")
                .contains("\"not_completed\":0").contains("\"exact\":true");
        // The claim is the one update of each job's row, and its completion deletes it. A job claimed
        // ahead that waited too long goes back and is claimed again, two updates more; keeping the
        // jobs, every one is updated at least twice (claimed, then completed).
        java.util.regex.Matcher updates = java.util.regex.Pattern.compile("\"row_updates_per_job\":([0-9.]+)").matcher(json);
        assertThat(updates.find()).as(json).isTrue();
        assertThat(Double.parseDouble(updates.group(1))).isGreaterThanOrEqualTo(1.0).isLessThan(2.0);
        assertThat(r.out()).contains("each completion deleting its job");
    }

    @Test
    void drainRejectsDeleteCompletedWhereItCannotApply() {
        String db = "sqlite://" + dir.resolve("dc.db");
        for (String[] flags : new String[][] {{"--at-most-once"}, {"--kill-worker-after", "1s"}}) {
            List<String> args = new java.util.ArrayList<>(List.of("drain", "--database-url", db, "--jobs", "10",
                    "--delete-completed"));
            args.addAll(List.of(flags));
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(String.join(" ", flags)).isEqualTo(2);
            assertThat(lines(r.err())).isEqualTo(1);
            assertThat(r.err()).contains("--delete-completed");
        }
    }

    @Test
    void drainRejectsBadCounts() {
        Result r = run("drain", "--database-url", "sqlite://:memory:", "--jobs", "0");
        assertThat(r.code()).isEqualTo(2);
        assertThat(lines(r.err())).isEqualTo(1);
    }

    @Test
    void churnRejectsBadFlagsWithOneLine() {
        String[][] bad = {
                {"churn", "--database-url", POSTGRES_URL, "--jobs", "0"},
                {"churn", "--database-url", POSTGRES_URL, "--jobs", "ten"},
                {"churn", "--database-url", POSTGRES_URL},
                {"churn", "--database-url", POSTGRES_URL, "--jobs", "10", "--batch", "0"},
                {"churn", "--database-url", POSTGRES_URL, "--jobs", "10", "--cleaner-interval", "10ms"},
                {"churn", "--database-url", POSTGRES_URL, "--jobs", "10", "--retention", "soon"},
                {"churn", "--database-url", POSTGRES_URL, "--jobs", "10", "--max-workers", "0"},
                // It measures a Postgres table: SQLite is refused before anything is opened.
                {"churn", "--database-url", "sqlite://:memory:", "--jobs", "10"}};
        for (String[] args : bad) {
            Result r = run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(lines(r.err())).as(r.err()).isEqualTo(1);
            assertThat(r.out()).isEmpty();
        }
        assertThat(run("churn", "--database-url", "sqlite://:memory:", "--jobs", "10").err()).contains("postgres://");
    }

    @Test
    void demoRunsForAShortDuration() {
        Result r = run("demo", "--database-url", "sqlite://" + dir.resolve("demo.db"), "--duration", "3s");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("demo: working jobs").contains("completed");
    }

    @Test
    void durationsParse() {
        assertThat(DurationConverter.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationConverter.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(DurationConverter.parse("2")).isEqualTo(Duration.ofSeconds(2));
        assertThat(DurationConverter.parse("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(DurationConverter.format(Duration.ofDays(2))).isEqualTo("2d");
        assertThat(DurationConverter.format(Duration.ofHours(36))).isEqualTo("36h");
    }
}
