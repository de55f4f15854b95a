package dev.runnel.example;

import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.postgres.PostgresDriver;
import dev.runnel.sqlite.SqliteDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Runs the README's example ({@link Shop}) on a SQLite file and, given a Postgres URL, one job on
 * Postgres; prints what it finds and exits 1 if anything is missing.
 *
 * <pre>java -p ... -m dev.runnel.example/dev.runnel.example.Main FILE [postgres://...?schema=S]</pre>
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Shop.main(new String[] {args[0]});
        int completed;
        try (SqliteDriver driver = SqliteDriver.open(Path.of(args[0]))) {
            completed = driver.jobList(JobQuery.inStates(JobState.COMPLETED)).size();
        }
        System.out.println("sqlite completed " + completed);
        boolean ok = completed == 4;
        if (args.length > 1) {
            ok &= postgres(args[1]);
        }
        System.exit(ok ? 0 : 1);
    }

    private static boolean postgres(String url) throws Exception {
        try (Runnel runnel = Runnel.builder()
                .driver(PostgresDriver.fromUrl(url))
                .autoMigrate(true)
                .queue("default", 10)
                .worker(Shop.SendReceipt.class, new Shop.SendReceiptWorker())
                .build()) {
            runnel.start();
            long id = runnel.insert(new Shop.SendReceipt(5, "e@example.com")).id();
            Optional<JobRow> done = runnel.jobs().awaitFinal(id, Duration.ofSeconds(30));
            System.out.println("postgres " + done.map(JobRow::state).orElseThrow());
            return done.orElseThrow().state() == JobState.COMPLETED;
        }
    }
}
