package dev.runnel.example;

// --- README example start ---
import dev.runnel.Drivers;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Kind;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

public class Shop {
    /** A job's args: a record, stored as JSON, and its kind, the name workers are found by. */
    @Kind("send_receipt")
    public record SendReceipt(long orderId, String email) implements JobArgs {}

    static final class SendReceiptWorker implements Worker<SendReceipt> {
        @Override public void work(Job<SendReceipt> job) {
            // Send the mail here. Return to complete; throw to retry with backoff.
            System.out.println("receipt for order " + job.args().orderId() + " sent to " + job.args().email());
        }
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args.length > 0 ? args[0] : "shop.db");
        try (Runnel runnel = Runnel.builder()
                .driver(Drivers.open("sqlite://" + file))   // or "postgres://user@host:5432/db"
                .autoMigrate(true)                          // create or upgrade Runnel's tables
                .queue("default", 100)                      // up to 100 jobs at once
                .worker(SendReceipt.class, new SendReceiptWorker())
                .build()) {
            runnel.start();
            List<Long> ids = new ArrayList<>();

            // One job; then many in one statement.
            ids.add(runnel.insert(new SendReceipt(1, "a@example.com"), InsertOptions.builder().priority(2).build()).id());
            for (InsertResult inserted : runnel.insertMany(List.of(
                    InsertRequest.of(new SendReceipt(2, "b@example.com")),
                    InsertRequest.of(new SendReceipt(3, "c@example.com"))))) {
                ids.add(inserted.id());
            }

            // Inside your own transaction (your DataSource's connection): the job exists only if you commit.
            try (Connection tx = DriverManager.getConnection("jdbc:sqlite:" + file)) {
                tx.setAutoCommit(false);
                ids.add(runnel.insert(tx, new SendReceipt(4, "d@example.com")).id());
                tx.commit();
            }

            // A script or a test waits for its jobs; an application just keeps running.
            for (long id : ids) {
                runnel.jobs().awaitFinal(id, Duration.ofSeconds(30));
            }

            // Read jobs back a page at a time (a page is 100 jobs unless you set its limit).
            JobQuery query = JobQuery.inStates(JobState.COMPLETED).limit(2);
            for (List<JobRow> page = runnel.jobs().list(query); !page.isEmpty(); page = runnel.jobs().list(query)) {
                for (JobRow job : page) {
                    System.out.println("job " + job.id() + " " + job.kind() + " " + job.state());
                }
                query = query.nextPage(page);
            }
        }
    }
}
// --- README example end ---
