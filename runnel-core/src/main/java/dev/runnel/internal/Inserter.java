package dev.runnel.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
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
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Inserts jobs: turns requests into fully resolved rows (every option validated and the args
 * encoded before anything is written, so a bad request in a batch leaves the batch unwritten),
 * writes them, explains a failure that comes of an unmigrated database, and wakes this client's
 * producers of the queues that got available jobs.
 */
public final class Inserter {
    private final Clock clock;
    private final Driver driver;
    private final Consumer<String> wake;

    public Inserter(Clock clock, Driver driver, Consumer<String> wake) {
        this.clock = clock;
        this.driver = driver;
        this.wake = wake;
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
        List<JobInsertParams> rows = resolve(requests);
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
        String queue = InsertOptions.validateQueue(options.queue().orElse(InsertOptions.DEFAULT_QUEUE));
        Instant scheduledAt = options.scheduledAt().orElse(now);
        JobState state = scheduledAt.isAfter(now) ? JobState.SCHEDULED : JobState.AVAILABLE;
        String encodedArgs;
        String metadata;
        try {
            encodedArgs = JobJson.MAPPER.writeValueAsString(args);
            metadata = JobJson.MAPPER.writeValueAsString(options.metadata().orElse(Map.of()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("args of kind " + kind + " cannot be encoded as JSON: " + e.getOriginalMessage(), e);
        }
        return new JobInsertParams(kind, encodedArgs, queue,
                options.priority().orElse(InsertOptions.DEFAULT_PRIORITY), state, now, scheduledAt,
                options.maxAttempts().orElse(InsertOptions.DEFAULT_MAX_ATTEMPTS),
                options.tags().orElse(List.of()), metadata);
    }
}
