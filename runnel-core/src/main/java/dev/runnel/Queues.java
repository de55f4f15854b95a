package dev.runnel;

import dev.runnel.internal.QueueAdmin;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The cluster's queues, from any client (one that only inserts, too): listed, paused and resumed.
 * A pause holds for every client until resumed, survives restarts, and takes effect at each
 * client's next claim: a paused queue fetches nothing, and its running jobs finish. A resume
 * wakes clients that work the queue (on Postgres by notification; elsewhere they poll, within
 * their poll interval). A queue exists once a client that works it has started. Handed out by
 * {@link Runnel#queues()}.
 */
public final class Queues {
    private final QueueAdmin admin;

    Queues(QueueAdmin admin) {
        this.admin = admin;
    }

    /** Every queue, by name. */
    public List<QueueRow> list() {
        return admin.list();
    }

    /** The queue named {@code name}, if it exists. */
    public Optional<QueueRow> get(String name) {
        return admin.get(name);
    }

    /** Pauses queue {@code name}; throws {@link NotFoundException} when there is no such queue. */
    public void pause(String name) {
        admin.setPaused(name, true);
    }

    /** Resumes queue {@code name}; throws {@link NotFoundException} when there is no such queue. */
    public void resume(String name) {
        admin.setPaused(name, false);
    }

    /** Pauses every queue; returns how many there are. */
    public int pauseAll() {
        return admin.setAllPaused(true);
    }

    /** Resumes every queue; returns how many there are. */
    public int resumeAll() {
        return admin.setAllPaused(false);
    }

    /**
     * Lets at most {@code limit} jobs of queue {@code name} run at once across all clients, from
     * each client's next claim on (within a few seconds for clients that had no limit for it).
     * Lowering a limit cancels nothing: running jobs finish, and no more start until the queue is
     * under it. Jobs being claimed at the moment the limit is set may go uncounted until they
     * finish. Throws {@link NotFoundException} when there is no such queue.
     */
    public void setGlobalLimit(String name, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("globalLimit of queue " + name + " must be at least 1, was " + limit);
        }
        admin.setGlobalLimit(name, OptionalInt.of(limit));
    }

    /** Lifts queue {@code name}'s global limit; throws {@link NotFoundException} when there is no such queue. */
    public void clearGlobalLimit(String name) {
        admin.setGlobalLimit(name, OptionalInt.empty());
    }

    /**
     * Lets at most {@code jobs} jobs of queue {@code name} start in any {@code period} across all
     * clients, from each client's next claim on (within a few seconds for clients that had no
     * limit for it). Starts before the change count. Throws {@link NotFoundException} when there
     * is no such queue.
     */
    public void setRateLimit(String name, int jobs, Duration period) {
        admin.setRateLimit(name, Optional.of(new RateLimit(jobs, period)));
    }

    /** Lifts queue {@code name}'s rate limit; throws {@link NotFoundException} when there is no such queue. */
    public void clearRateLimit(String name) {
        admin.setRateLimit(name, Optional.empty());
    }

    /**
     * Lets at most {@code limit.limit()} jobs of queue {@code name} run at once per key (see
     * {@link KeyLimit}), the keys taking turns, from each client's next claim on. The queue's
     * waiting jobs get their keys now; jobs inserted from now on get theirs as they are inserted.
     * Throws {@link NotFoundException} when there is no such queue.
     */
    public void setKeyLimit(String name, KeyLimit limit) {
        if (limit == null) {
            throw new IllegalArgumentException("keyLimit must not be null");
        }
        admin.setKeyLimit(name, Optional.of(limit));
    }

    /** Lifts queue {@code name}'s per-key limit; throws {@link NotFoundException} when there is no such queue. */
    public void clearKeyLimit(String name) {
        admin.setKeyLimit(name, Optional.empty());
    }
}
