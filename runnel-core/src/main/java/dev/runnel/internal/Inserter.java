package dev.runnel.internal;

import dev.runnel.InsertMiddleware;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.InsertingJob;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.RunnelConnectException;
import dev.runnel.RunnelException;
import dev.runnel.UniqueOptions;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobInsertTxParams;
import dev.runnel.driver.JobLink;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.Links;
import dev.runnel.driver.UniqueStates;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
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
    private final ArgsCodec codec;
    private final Predicate<String> atMostOnce;

    /**
     * @param atMostOnce whether this client works a queue at most once: no linked job (a workflow
     *     task, a batch's job, a sequence's) may go there, as its claim removes it
     */
    public Inserter(Clock clock, Driver driver, Consumer<String> wake, List<InsertMiddleware> middleware,
            ArgsCodec codec, Predicate<String> atMostOnce) {
        this.clock = clock;
        this.driver = driver;
        this.wake = wake;
        this.middleware = List.copyOf(middleware);
        this.codec = codec;
        this.atMostOnce = atMostOnce;
    }

    /** Inserts in as few statements as the driver allows; returns the results in order. */
    public List<InsertResult> insertMany(List<InsertRequest> requests) {
        if (anySequence(requests)) {
            return insertLinked(null, requests, sequenceLinks(requests), null, 0, null, 0).jobs();
        }
        return write(requests, driver::jobInsertMany);
    }

    /** Inserts on the caller's connection, inside its transaction; returns the results in order. */
    public List<InsertResult> insertMany(Connection transaction, List<InsertRequest> requests) {
        if (anySequence(requests)) {
            return insertLinked(transaction, requests, sequenceLinks(requests), null, 0, null, 0).jobs();
        }
        // Not yet committed when the producers wake: they may find nothing, and the next poll will.
        return write(requests, rows -> driver.jobInsertManyTx(new JobInsertTxParams(transaction, rows)));
    }

    private static boolean anySequence(List<InsertRequest> requests) {
        for (InsertRequest r : requests) {
            if (r.options().sequence().isPresent() || r.args().insertOptions().sequence().isPresent()) {
                return true;
            }
        }
        return false;
    }

    private static List<JobLink> sequenceLinks(List<InsertRequest> requests) {
        List<JobLink> links = new ArrayList<>(requests.size());
        for (InsertRequest r : requests) {
            links.add(link(null, List.of(), Links.CANCEL, r.options().orElse(r.args().insertOptions()), false));
        }
        return links;
    }

    /** The link of a job with these (effective) options. */
    static JobLink link(String task, List<String> after, String policy, InsertOptions options, boolean inBatch) {
        return new JobLink(task, after, policy, options.sequence().orElse(null),
                options.sequenceMovesOnDiscard() ? Links.RUN : Links.HOLD, inBatch);
    }

    /**
     * Inserts jobs tied to others ({@link Driver#linkInsert}), through the insert middleware like
     * any insert, each marked linked in its metadata; wakes the queues that got available jobs.
     * Everything is checked before anything is written.
     */
    LinkInserted insertLinked(Connection transaction, List<InsertRequest> requests, List<JobLink> links,
            String workflowName, long workflowId, LinkInsertParams.NewBatch batch, long batchId) {
        if (!driver.supportsLinks()) {
            throw new UnsupportedOperationException("the " + driver.name()
                    + " store keeps no workflows, batches or sequences; use SQLite or Postgres for them");
        }
        if (transaction != null && !driver.supportsTransactionalInsert()) {
            throw new UnsupportedOperationException("the " + driver.name()
                    + " store cannot insert inside an SQL transaction: insert after commit, or keep an outbox table");
        }
        Instant now = clock.instant();
        LinkInserted[] inserted = new LinkInserted[1];
        write(requests, rows -> {
            List<JobInsertParams> marked = new ArrayList<>(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                JobInsertParams row = rows.get(i);
                JobLink link = links.get(i);
                if (link.any() && row.unique()) {
                    throw new IllegalArgumentException("a " + what(link) + " cannot be unique");
                }
                if (link.any() && atMostOnce.test(row.queue())) {
                    throw new IllegalArgumentException("a " + what(link) + " cannot go to queue " + row.queue()
                            + ", which this client works at most once: its claim would remove the job");
                }
                marked.add(link.any() ? markLinked(row) : row);
            }
            inserted[0] = driver.linkInsert(new LinkInsertParams(transaction, workflowName, workflowId, batch, batchId,
                    marked, links, now));
            return inserted[0].jobs();
        });
        inserted[0].availableQueues().forEach(wake);
        return inserted[0];
    }

    private static String what(JobLink link) {
        return link.task() != null ? "workflow task (" + link.task() + ")"
                : link.sequenceKey() != null ? "job of sequence " + link.sequenceKey() : "batch's job";
    }

    private static JobInsertParams markLinked(JobInsertParams row) {
        String m = row.metadata();
        String metadata = m.equals("{}") ? "{\"" + Links.METADATA_KEY + "\":true}"
                : "{\"" + Links.METADATA_KEY + "\":true," + m.substring(1);
        return new JobInsertParams(row.kind(), row.args(), row.queue(), row.priority(), row.state(), row.createdAt(),
                row.scheduledAt(), row.maxAttempts(), row.tags(), metadata, row.uniqueKey(), row.uniqueStates());
    }

    private List<InsertResult> write(List<InsertRequest> requests, Function<List<JobInsertParams>, List<InsertResult>> insert) {
        if (requests.isEmpty()) {
            return List.of();
        }
        if (middleware.isEmpty()) {
            return store(resolve(requests), insert);
        }
        Instant now = clock.instant();
        List<PendingInsert> jobs = new ArrayList<>(requests.size());
        for (InsertRequest request : requests) {
            jobs.add(new PendingInsert(request.args(), request.options(), now, codec));
        }
        List<InsertingJob> view = Collections.unmodifiableList(jobs);
        Supplier<List<InsertResult>> writeAll = () -> {
            List<JobInsertParams> rows = new ArrayList<>(jobs.size());
            for (PendingInsert job : jobs) {
                rows.add(job.toParams());
            }
            return store(rows, insert);
        };
        return new Link(0, view, writeAll).through();
    }

    private List<InsertResult> store(List<JobInsertParams> rows, Function<List<JobInsertParams>, List<InsertResult>> insert) {
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
     * The chain from the middleware at {@code index} on. Each middleware gets the next link, and
     * must proceed through it exactly once and let its failure through: a caller must never get
     * ids for jobs that were not written.
     */
    private final class Link implements InsertMiddleware.Next {
        private final int index;
        private final List<InsertingJob> jobs;
        private final Supplier<List<InsertResult>> writeAll;
        private boolean called;
        private List<InsertResult> ids;
        private Throwable failure;

        Link(int index, List<InsertingJob> jobs, Supplier<List<InsertResult>> writeAll) {
            this.index = index;
            this.jobs = jobs;
            this.writeAll = writeAll;
        }

        /** Runs the middleware at {@code index} with the rest of the chain after it; returns the results. */
        List<InsertResult> through() {
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
        public List<InsertResult> proceed() {
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

    private JobInsertParams resolve(JobArgs args, InsertOptions given, Instant now) {
        String kind = InsertOptions.validateKind(args.kind());
        InsertOptions options = given.orElse(args.insertOptions());
        return params(codec, args, kind, InsertOptions.validateQueue(options.queue().orElse(InsertOptions.DEFAULT_QUEUE)),
                options.priority().orElse(InsertOptions.DEFAULT_PRIORITY), options.scheduledAt().orElse(now),
                options.maxAttempts().orElse(InsertOptions.DEFAULT_MAX_ATTEMPTS), options.tags().orElse(List.of()),
                options.metadata().orElse(Map.of()), options.unique(), now);
    }

    /**
     * The row for a job whose options are resolved and checked: its args and metadata encoded with
     * the client's codec.
     */
    static JobInsertParams params(ArgsCodec codec, JobArgs args, String kind, String queue, int priority,
            Instant scheduledAt, int maxAttempts, List<String> tags, Map<String, ?> metadata,
            Optional<UniqueOptions> unique, Instant now) {
        JobState state = scheduledAt.isAfter(now) ? JobState.SCHEDULED : JobState.AVAILABLE;
        String encodedArgs = codec.encodeArgs(args, kind);
        String encodedMetadata = codec.encodeMetadata(metadata, kind);
        return new JobInsertParams(kind, encodedArgs, queue, priority, state, now, scheduledAt, maxAttempts, tags,
                encodedMetadata, unique.map(u -> UniqueKeys.key(kind, encodedArgs, queue, scheduledAt, u)).orElse(null),
                unique.map(u -> UniqueStates.mask(u.states())).orElse(0));
    }
}
