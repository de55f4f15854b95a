package dev.runnel.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.RunnelConnectException;
import dev.runnel.RunnelException;
import dev.runnel.UniqueOptions;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.UniqueStates;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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

    /** Inserts in as few statements as the driver allows; returns the results in order. */
    public List<InsertResult> insertMany(List<InsertRequest> requests) {
        return write(requests, driver::jobInsertMany);
    }

    /** Inserts on the caller's connection, inside its transaction; returns the results in order. */
    public List<InsertResult> insertMany(Connection transaction, List<InsertRequest> requests) {
        // Not yet committed when the producers wake: they may find nothing, and the next poll will.
        return write(requests, rows -> driver.jobInsertManyTx(transaction, rows));
    }

    private List<InsertResult> write(List<InsertRequest> requests, Function<List<JobInsertParams>, List<InsertResult>> insert) {
        if (requests.isEmpty()) {
            return List.of();
        }
        List<JobInsertParams> rows = resolve(requests);
        // A key twice in one batch is written once, and its later copies are its duplicates: the
        // statement must not meet the same key twice (Postgres refuses to resolve one conflict twice).
        int[] firstOf = JobInsertParams.anyUnique(rows) ? firstOfEachKey(rows) : null;
        List<JobInsertParams> written = firstOf == null ? rows : distinct(rows, firstOf);
        List<InsertResult> results;
        try {
            results = insert.apply(written);
        } catch (RunnelException e) {
            throw explained(e);
        }
        wakeFor(written);
        return firstOf == null ? results : expand(results, firstOf);
    }

    /** For each row, the index among the distinct rows of the first row with its unique key (or of itself). */
    private static int[] firstOfEachKey(List<JobInsertParams> rows) {
        int[] firstOf = new int[rows.size()];
        Map<ByteBuffer, Integer> seen = new HashMap<>();
        int distinct = 0;
        for (int i = 0; i < firstOf.length; i++) {
            byte[] key = rows.get(i).uniqueKey();
            Integer earlier = key == null ? null : seen.putIfAbsent(ByteBuffer.wrap(key), distinct);
            firstOf[i] = earlier != null ? -1 - earlier : distinct++;
        }
        return firstOf;
    }

    private static List<JobInsertParams> distinct(List<JobInsertParams> rows, int[] firstOf) {
        List<JobInsertParams> distinct = new ArrayList<>(rows.size());
        for (int i = 0; i < firstOf.length; i++) {
            if (firstOf[i] >= 0) {
                distinct.add(rows.get(i));
            }
        }
        return distinct;
    }

    private static List<InsertResult> expand(List<InsertResult> written, int[] firstOf) {
        List<InsertResult> results = new ArrayList<>(firstOf.length);
        for (int index : firstOf) {
            results.add(index >= 0 ? written.get(index) : new InsertResult(written.get(-1 - index).id(), true));
        }
        return results;
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
        UniqueOptions unique = options.unique().orElse(null);
        return new JobInsertParams(kind, encodedArgs, queue,
                options.priority().orElse(InsertOptions.DEFAULT_PRIORITY), state, now, scheduledAt,
                options.maxAttempts().orElse(InsertOptions.DEFAULT_MAX_ATTEMPTS),
                options.tags().orElse(List.of()), metadata,
                unique == null ? null : UniqueKeys.key(kind, encodedArgs, queue, scheduledAt, unique),
                unique == null ? 0 : UniqueStates.mask(unique.states()));
    }
}
