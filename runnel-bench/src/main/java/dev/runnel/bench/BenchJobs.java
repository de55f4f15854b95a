package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.driver.Driver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The no-op jobs every harness works, and how they are inserted. */
public final class BenchJobs {
    /** How a result names a delivery mode: {@code at_least_once} or {@code at_most_once}. */
    public static String mode(Runnel.Delivery delivery) {
        return delivery.name().toLowerCase(java.util.Locale.ROOT);
    }

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
        insert(runnel, options, count, ids, INSERT_BATCH);
    }

    /** Inserts {@code count} jobs in batches of {@code batchSize}, marking each id in {@code ids}. */
    public static void insert(Runnel runnel, InsertOptions options, long count, IdBitmap ids, int batchSize) {
        insert(runnel, i -> options, count, ids, batchSize);
    }

    /** As {@link #insert(Runnel, InsertOptions, long, IdBitmap, int)}, job {@code i} with options {@code options(i)}. */
    public static void insert(Runnel runnel, java.util.function.LongFunction<InsertOptions> options, long count,
            IdBitmap ids, int batchSize) {
        List<InsertRequest> batch = new ArrayList<>((int) Math.min(count, batchSize));
        for (long i = 0; i < count; i++) {
            batch.add(new InsertRequest(new Args(i), options.apply(i)));
            if (batch.size() == batchSize || i == count - 1) {
                for (InsertResult result : runnel.insertMany(batch)) {
                    ids.add(result.id());
                }
                batch.clear();
            }
        }
    }

    /** What a bench client saw: every id it was handed, how many it was handed twice, completions stored. */
    public static final class Tally {
        final IdBitmap worked = new IdBitmap();
        final AtomicLong duplicates = new AtomicLong();
        final LongAdder completed = new LongAdder();
    }

    /**
     * A client of {@code workers} slots on {@code queue} that works bench jobs into {@code tally}.
     * A completion counts once stored: at least once, when the listener hears of it; at most once,
     * when the job has run (its claim removed it), and then with no listener, so that outcomes skip
     * the completer as they would in production.
     */
    public static RunnelBuilder client(Driver driver, String queue, int workers, Runnel.Delivery delivery, Tally tally) {
        return client(driver, queue, workers, delivery, Duration.ZERO, tally);
    }

    /** As {@link #client(Driver, String, int, Runnel.Delivery, Tally)}, each job taking {@code jobTime} (a sleep). */
    public static RunnelBuilder client(Driver driver, String queue, int workers, Runnel.Delivery delivery,
            Duration jobTime, Tally tally) {
        Body sleep = n -> Thread.sleep(jobTime);
        return client(driver, queue, workers, delivery, jobTime.isZero() ? null : sleep, tally);
    }

    /** What a job does with its sequence number, beyond being counted: a scenario's workload. */
    @FunctionalInterface
    public interface Body {
        void run(long n) throws Exception;
    }

    /** As {@link #client(Driver, String, int, Runnel.Delivery, Tally)}, each job running {@code body}; null for none. */
    public static RunnelBuilder client(Driver driver, String queue, int workers, Runnel.Delivery delivery,
            Body body, Tally tally) {
        boolean atMostOnce = delivery == Runnel.Delivery.AT_MOST_ONCE;
        RunnelBuilder builder = Runnel.builder()
                .driver(driver)
                .queue(queue, workers, delivery)
                .worker(Args.class, job -> {
                    if (!tally.worked.add(job.id())) {
                        tally.duplicates.incrementAndGet();
                    }
                    if (body != null) {
                        body.run(job.args().n());
                    }
                    if (atMostOnce) {
                        tally.completed.increment();
                    }
                });
        if (!atMostOnce) {
            builder.listener(event -> {
                if (event.type() == JobEvent.Type.COMPLETED) {
                    tally.completed.increment();
                }
            });
        }
        return builder;
    }
}
