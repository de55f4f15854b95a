package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import java.util.ArrayList;
import java.util.List;

/** The no-op jobs every harness works, and how they are inserted. */
public final class BenchJobs {
    /** Jobs per insert statement: large enough to amortise a statement, small enough to keep locks short. */
    public static final int INSERT_BATCH = 10_000;

    private BenchJobs() {}

    /** The args of a bench job: a sequence number, so the payload is not empty. */
    public record Args(long n) implements JobArgs {
        @Override
        public String kind() {
            return "bench_noop";
        }
    }

    /** Inserts {@code count} jobs in batches of {@link #INSERT_BATCH}, marking each id in {@code ids}. */
    public static void insert(Runnel runnel, InsertOptions options, long count, IdBitmap ids) {
        List<InsertRequest> batch = new ArrayList<>((int) Math.min(count, INSERT_BATCH));
        for (long i = 0; i < count; i++) {
            batch.add(new InsertRequest(new Args(i), options));
            if (batch.size() == INSERT_BATCH || i == count - 1) {
                for (long id : runnel.insertMany(batch)) {
                    ids.add(id);
                }
                batch.clear();
            }
        }
    }
}
