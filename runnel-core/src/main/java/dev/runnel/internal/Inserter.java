package dev.runnel.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.runnel.InsertMiddleware;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertingJob;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.RunnelConnectException;
import dev.runnel.RunnelException;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Inserts jobs: turns requests into fully resolved rows (every option validated and the args
 * encoded before anything is written, so a bad request in a batch leaves the batch unwritten),
 * passes them through the client's insert middleware, writes them, explains a failure that comes of
 * an unmigrated database, and wakes this client's producers of the queues that got available jobs.
 */
public final class Inserter {
    private final Clock clock;
    private final Driver driver;
    private final Consumer<String> wake;
    private final List<InsertMiddleware> middleware;

    public Inserter(Clock clock, Driver driver, Consumer<String> wake, List<InsertMiddleware> middleware) {
        this.clock = clock;
        this.driver = driver;
        this.wake = wake;
        this.middleware = List.copyOf(middleware);
    }

    /** Inserts in as few statements as the driver allows; returns the ids in order. */
    public long[] insertMany(List<InsertRequest> requests) {
        return write(requests, driver::jobInsertMany);
    }

    /** Inserts on the caller's connection, inside its transaction; returns the ids in order. */
    public long[] insertMany(Connection transaction, List<InsertRequest> requests) {
        // Not yet committed when the producers wake: they may find nothing, and the next poll will.
        return write(requests, rows -> driver.jobInsertManyTx(transaction, rows));
    }

    private long[] write(List<InsertRequest> requests, Function<List<JobInsertParams>, long[]> insert) {
        if (requests.isEmpty()) {
            return new long[0];
        }
        if (middleware.isEmpty()) {
            return store(resolve(requests), insert);
        }
        Instant now = clock.instant();
        List<PendingInsert> jobs = new ArrayList<>(requests.size());
        for (InsertRequest request : requests) {
            jobs.add(new PendingInsert(request.args(), request.options(), now));
        }
        List<InsertingJob> view = Collections.unmodifiableList(jobs);
        Supplier<long[]> writeAll = () -> {
            List<JobInsertParams> rows = new ArrayList<>(jobs.size());
            for (PendingInsert job : jobs) {
                rows.add(job.toParams());
            }
            return store(rows, insert);
        };
        return new Link(0, view, writeAll).through();
    }

    private long[] store(List<JobInsertParams> rows, Function<List<JobInsertParams>, long[]> insert) {
        long[] ids;
        try {
            ids = insert.apply(rows);
        } catch (RunnelException e) {
            throw explained(e);
        }
        wakeFor(rows);
        return ids;
    }

    /**
     * The chain from the middleware at {@code index} on. Each middleware gets the next link, and
     * must proceed through it exactly once and let its failure through: a caller must never get
     * ids for jobs that were not written.
     */
    private final class Link implements InsertMiddleware.Next {
        private final int index;
        private final List<InsertingJob> jobs;
        private final Supplier<long[]> writeAll;
        private boolean called;
        private long[] ids;
        private Throwable failure;

        Link(int index, List<InsertingJob> jobs, Supplier<long[]> writeAll) {
            this.index = index;
            this.jobs = jobs;
            this.writeAll = writeAll;
        }

        /** Runs the middleware at {@code index} with the rest of the chain after it; returns the ids. */
        long[] through() {
            InsertMiddleware current = middleware.get(index);
            Link next = new Link(index + 1, jobs, writeAll);
            current.insert(jobs, next);
            if (next.failure instanceof RuntimeException e) {
                throw e;
            }
            if (next.failure instanceof Error e) {
                throw e;
            }
            if (!next.called) {
                throw new IllegalStateException("insert middleware " + current
                        + " returned without calling next.proceed(), so nothing was inserted");
            }
            return next.ids;
        }

        @Override
        public long[] proceed() {
            if (called) {
                throw new IllegalStateException("insert middleware " + middleware.get(index - 1)
                        + " called next.proceed() twice: the jobs are inserted once");
            }
            called = true;
            try {
                ids = index == middleware.size() ? writeAll.get() : through();
                return ids;
            } catch (RuntimeException | Error e) {
                failure = e;
                throw e;
            }
        }
    }

    /**
     * {@code e}, or, when the schema is behind this Runnel (a fresh database nobody migrated), an
     * exception that says what to do instead of the database's "no such table".
     */
    private RuntimeException explained(RunnelException e) {
        if (e instanceof RunnelConnectException) {
            return e;
        }
        try {
            new Migrator(driver).checkCurrent();
        } catch (RunnelException schema) {
            schema.addSuppressed(e);
            return schema;
        }
        return e;
    }

    /** Wakes the producers of the queues that got available jobs, once per run of one queue. */
    private void wakeFor(List<JobInsertParams> rows) {
        String last = null;
        for (JobInsertParams row : rows) {
            String queue = row.queue();
            if (row.state() == JobState.AVAILABLE && !queue.equals(last)) {
                wake.accept(queue);
                last = queue;
            }
        }
    }

    List<JobInsertParams> resolve(List<InsertRequest> requests) {
        Instant now = clock.instant();
        List<JobInsertParams> rows = new ArrayList<>(requests.size());
        for (InsertRequest request : requests) {
            rows.add(resolve(request.args(), request.options(), now));
        }
        return rows;
    }

    private static JobInsertParams resolve(JobArgs args, InsertOptions given, Instant now) {
        String kind = InsertOptions.validateKind(args.kind());
        InsertOptions options = given.orElse(args.insertOptions());
        return params(args, kind, InsertOptions.validateQueue(options.queue().orElse(InsertOptions.DEFAULT_QUEUE)),
                options.priority().orElse(InsertOptions.DEFAULT_PRIORITY), options.scheduledAt().orElse(now),
                options.maxAttempts().orElse(InsertOptions.DEFAULT_MAX_ATTEMPTS), options.tags().orElse(List.of()),
                options.metadata().orElse(Map.of()), now);
    }

    /** The row for a job whose options are resolved and checked: its args and metadata encoded. */
    static JobInsertParams params(JobArgs args, String kind, String queue, int priority, Instant scheduledAt,
            int maxAttempts, List<String> tags, Map<String, ?> metadata, Instant now) {
        JobState state = scheduledAt.isAfter(now) ? JobState.SCHEDULED : JobState.AVAILABLE;
        String encodedArgs;
        String encodedMetadata;
        try {
            encodedArgs = JobJson.MAPPER.writeValueAsString(args);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("args of kind " + kind + " cannot be encoded as JSON: " + e.getOriginalMessage(), e);
        }
        try {
            encodedMetadata = JobJson.MAPPER.writeValueAsString(metadata);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata of a job of kind " + kind + " cannot be encoded as JSON: "
                    + e.getOriginalMessage(), e);
        }
        return new JobInsertParams(kind, encodedArgs, queue, priority, state, now, scheduledAt, maxAttempts, tags,
                encodedMetadata);
    }
}
