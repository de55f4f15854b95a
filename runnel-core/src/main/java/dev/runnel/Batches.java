package dev.runnel;

import dev.runnel.internal.LinkAdmin;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;

/**
 * Batches: groups of jobs with callbacks ({@link Batch}), inserted, added to and read from any
 * client. Handed out by {@link Runnel#batches()}. A batch's counts are kept by every outcome of
 * its jobs, in the same write, so reading the progress of a batch of a million jobs costs one row.
 * Batches need a driver that stores them (SQLite, Postgres); on another, every method here
 * that writes throws {@link UnsupportedOperationException}.
 */
public final class Batches {
    private final LinkAdmin admin;

    Batches(LinkAdmin admin) {
        this.admin = admin;
    }

    /** Creates a batch of {@code jobs} (at least one), all of them or none. */
    public BatchResult insert(Batch batch, List<InsertRequest> jobs) {
        return admin.insertBatch(null, batch, jobs);
    }

    /** Creates a batch inside the caller's transaction: it exists only if the caller commits. */
    public BatchResult insert(Connection transaction, Batch batch, List<InsertRequest> jobs) {
        return admin.insertBatch(transaction, batch, jobs);
    }

    /**
     * Adds jobs to batch {@code id}, say from one of its own jobs while it runs. A callback whose
     * condition held already was inserted then, and is not inserted again.
     *
     * @throws NotFoundException if there is no such batch
     */
    public BatchResult add(long id, List<InsertRequest> jobs) {
        return admin.addToBatch(null, id, jobs);
    }

    /** Adds jobs inside the caller's transaction, as {@link #add(long, List)}. */
    public BatchResult add(Connection transaction, long id, List<InsertRequest> jobs) {
        return admin.addToBatch(transaction, id, jobs);
    }

    /** The batch with this id and its counts, if it exists. */
    public Optional<BatchRow> get(long id) {
        return admin.batch(id);
    }

    /** Up to {@code limit} (1 to 1,000) batches, newest first. */
    public List<BatchRow> list(int limit) {
        return admin.batches(limit, 0);
    }

    /** Up to {@code limit} batches with ids below {@code beforeId}, newest first: the next page. */
    public List<BatchRow> list(int limit, long beforeId) {
        return admin.batches(limit, beforeId);
    }
}
