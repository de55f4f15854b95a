package dev.runnel.example;

import dev.runnel.InsertOptions;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import dev.runnel.postgres.PostgresDriver;
import dev.runnel.sqlite.SqliteDriver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Runs the README's example on a SQLite file and, given a Postgres URL, one job on Postgres; prints
 * what was sent and exits 1 if anything is missing.
 *
 * <pre>java -p ... -m dev.runnel.example/dev.runnel.example.Main FILE [postgres://...?schema=S]</pre>
 */
public final class Main {
    static final List<String> SENT = new CopyOnWriteArrayList<>();

    // --- README example start ---
    record SendReceipt(long orderId, String email) implements JobArgs {
        @Override public String kind() { return "send_receipt"; }
    }

    static final class SendReceiptWorker implements Worker<SendReceipt> {
        @Override public void work(Job<SendReceipt> job) {
            SENT.add(job.args().email()); // send the mail here; throw to retry with backoff
        }
    }

    static void example(Path file) throws Exception {
        try (Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(file))
                .autoMigrate(true)
                .queue("default", 100)
                .worker(SendReceipt.class, new SendReceiptWorker())
                .build()) {
            runnel.start();
            runnel.insert(new SendReceipt(42, "a@example.com"), InsertOptions.builder().priority(2).build());

            // Enqueue inside your own transaction: the job exists only if you commit.
            try (Connection tx = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                tx.setAutoCommit(false);
                runnel.insert(tx, new SendReceipt(43, "b@example.com"));
                tx.commit();
            }
            Thread.sleep(2_000);
        }
    }
    // --- README example end ---

    private Main() {}

    public static void main(String[] args) throws Exception {
        example(Path.of(args[0]));
        System.out.println("sqlite sent " + SENT.stream().sorted().toList());
        boolean ok = SENT.containsAll(List.of("a@example.com", "b@example.com"));
        if (args.length > 1) {
            SENT.clear();
            ok &= postgres(args[1]);
            System.out.println("postgres sent " + SENT);
        }
        System.exit(ok ? 0 : 1);
    }

    private static boolean postgres(String url) throws InterruptedException {
        try (Runnel runnel = Runnel.builder()
                .driver(PostgresDriver.fromUrl(url))
                .autoMigrate(true)
                .queue("default", 10)
                .worker(SendReceipt.class, new SendReceiptWorker())
                .build()) {
            runnel.start();
            long id = runnel.insert(new SendReceipt(44, "c@example.com")).id();
            for (int i = 0; i < 200 && runnel.jobGet(id).orElseThrow().state() != JobState.COMPLETED; i++) {
                Thread.sleep(25);
            }
            return runnel.jobGet(id).orElseThrow().state() == JobState.COMPLETED && SENT.contains("c@example.com");
        }
    }
}
