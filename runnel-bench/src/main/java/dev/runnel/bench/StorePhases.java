package dev.runnel.bench;

import dev.runnel.Drivers;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The store's work for N no-op jobs, one phase at a time, each followed by a mark: insert them,
 * claim them at most once, insert them again, claim them at least once, complete them. Between
 * phases nothing else runs, so a profiler of the server that is told of each mark (bin/redis-instructions
 * runs it under valgrind's callgrind) charges each phase exactly what it cost. Claims and inserts
 * go in the sizes the runtime uses: 1,000 jobs an insert, 500 a claim, a completion per claim.
 */
public final class StorePhases {
    static final int INSERT_BATCH = 1_000;
    static final int CLAIM_BATCH = 500;

    /** What the phases did: jobs claimed at most once, and claimed and completed at least once. */
    public record Counts(int atMostOnce, int atLeastOnce, int completed) {}

    private StorePhases() {}

    /**
     * Runs the phases on {@code driver}'s queue {@code queue} for {@code n} jobs (a multiple of
     * {@link #INSERT_BATCH}), calling {@code mark} after a warm-up ("warm") and after each phase
     * ("insert_amo", "claim_amo", "insert_alo", "claim_alo", "complete_alo").
     */
    public static Counts run(Driver driver, String queue, int n, Consumer<String> mark) {
        insert(driver, queue, INSERT_BATCH);
        drain(driver, queue, true, rows -> {});
        mark.accept("warm");
        insert(driver, queue, n);
        mark.accept("insert_amo");
        int[] amo = {0};
        drain(driver, queue, true, rows -> amo[0] += rows.size());
        mark.accept("claim_amo");
        insert(driver, queue, n);
        mark.accept("insert_alo");
        List<List<JobRow>> claims = new ArrayList<>();
        drain(driver, queue, false, claims::add);
        mark.accept("claim_alo");
        int completed = 0;
        for (List<JobRow> claim : claims) {
            completed += driver.jobCompleteMany(JobCompleteManyParams.of(claim, Instant.now())).length;
        }
        mark.accept("complete_alo");
        return new Counts(amo[0], claims.stream().mapToInt(List::size).sum(), completed);
    }

    private static void insert(Driver driver, String queue, int n) {
        for (int b = 0; b < n / INSERT_BATCH; b++) {
            Instant now = Instant.now();
            List<JobInsertParams> batch = new ArrayList<>(INSERT_BATCH);
            for (int i = 0; i < INSERT_BATCH; i++) {
                batch.add(new JobInsertParams("noop", "{\"n\":" + (b * INSERT_BATCH + i) + "}", queue, 1,
                        JobState.AVAILABLE, now, now, 25, List.of(), "{}"));
            }
            driver.jobInsertMany(batch);
        }
    }

    private static void drain(Driver driver, String queue, boolean atMostOnce, Consumer<List<JobRow>> each) {
        List<JobRow> rows;
        while (!(rows = driver.jobClaim(new JobClaimParams(queue, CLAIM_BATCH, Instant.now(), "phases", atMostOnce)))
                .isEmpty()) {
            each.accept(rows);
        }
    }

    /**
     * {@code StorePhases URL N PID}: runs the phases on the store at URL (its own namespace or
     * schema, migrated), marking each with {@code callgrind_control --dump=PHASE PID}.
     */
    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: StorePhases URL JOBS CALLGRIND_PID");
            System.exit(2);
        }
        int n = Integer.parseInt(args[1]);
        String pid = args[2];
        try (Driver driver = Drivers.open(args[0])) {
            new dev.runnel.Migrator(driver).up();
            Counts counts = run(driver, "phases", n, phase -> dump(pid, phase));
            System.out.println("at most once " + counts.atMostOnce() + ", at least once " + counts.atLeastOnce()
                    + ", completed " + counts.completed());
        }
    }

    private static void dump(String pid, String phase) {
        try {
            int exit = new ProcessBuilder("callgrind_control", "--dump=" + phase, pid).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("callgrind_control --dump=" + phase + " " + pid + " exited " + exit);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
