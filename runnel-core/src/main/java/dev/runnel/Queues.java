package dev.runnel;

import dev.runnel.driver.Driver;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.QueueRateLimitParams;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * The cluster's queues, from any client (one that only inserts, too): listed, paused and resumed.
 * A pause holds for every client until resumed, survives restarts, and takes effect at each
 * client's next claim: a paused queue fetches nothing, and its running jobs finish. A resume
 * wakes clients that work the queue (on Postgres by notification; elsewhere they poll, within
 * their poll interval). A queue exists once a client that works it has started. Handed out by
 * {@link Runnel#queues()}.
 */
public final class Queues {
    private final Driver driver;
    private final Clock clock;
    private final Consumer<String> wake;

    Queues(Driver driver, Clock clock, Consumer<String> wake) {
        this.driver = driver;
        this.clock = clock;
        this.wake = wake;
    }

    /** Every queue, by name. */
    public List<QueueRow> list() {
        return driver.queueList();
    }

    /** The queue named {@code name}, if it exists. */
    public Optional<QueueRow> get(String name) {
        InsertOptions.validateQueue(name);
        return list().stream().filter(q -> q.name().equals(name)).findFirst();
    }

    /** Pauses queue {@code name}; throws {@link NotFoundException} when there is no such queue. */
    public void pause(String name) {
        change(Optional.of(InsertOptions.validateQueue(name)), true);
    }

    /** Resumes queue {@code name}; throws {@link NotFoundException} when there is no such queue. */
    public void resume(String name) {
        change(Optional.of(InsertOptions.validateQueue(name)), false);
    }

    /** Pauses every queue; returns how many there are. */
    public int pauseAll() {
        return change(Optional.empty(), true).size();
    }

    /** Resumes every queue; returns how many there are. */
    public int resumeAll() {
        return change(Optional.empty(), false).size();
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
        setLimit(name, OptionalInt.of(limit));
    }

    /** Lifts queue {@code name}'s global limit; throws {@link NotFoundException} when there is no such queue. */
    public void clearGlobalLimit(String name) {
        setLimit(name, OptionalInt.empty());
    }

    /**
     * Lets at most {@code jobs} jobs of queue {@code name} start in any {@code period} across all
     * clients, from each client's next claim on (within a few seconds for clients that had no
     * limit for it). Starts before the change count. Throws {@link NotFoundException} when there
     * is no such queue.
     */
    public void setRateLimit(String name, int jobs, Duration period) {
        RateLimit rate = new RateLimit(jobs, period);
        if (!driver.queueSetRateLimit(new QueueRateLimitParams(InsertOptions.validateQueue(name), Optional.of(rate), clock.instant()))) {
            throw notFound(name);
        }
        wake.accept(name);
    }

    /** Lifts queue {@code name}'s rate limit; throws {@link NotFoundException} when there is no such queue. */
    public void clearRateLimit(String name) {
        if (!driver.queueSetRateLimit(new QueueRateLimitParams(InsertOptions.validateQueue(name), Optional.empty(), clock.instant()))) {
            throw notFound(name);
        }
        wake.accept(name);
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
        if (!driver.queueSetKeyLimit(new QueueKeyLimitParams(InsertOptions.validateQueue(name), Optional.of(limit), clock.instant()))) {
            throw notFound(name);
        }
        wake.accept(name);
    }

    /** Lifts queue {@code name}'s per-key limit; throws {@link NotFoundException} when there is no such queue. */
    public void clearKeyLimit(String name) {
        if (!driver.queueSetKeyLimit(new QueueKeyLimitParams(InsertOptions.validateQueue(name), Optional.empty(), clock.instant()))) {
            throw notFound(name);
        }
        wake.accept(name);
    }

    private void setLimit(String name, OptionalInt limit) {
        if (!driver.queueSetGlobalLimit(new QueueGlobalLimitParams(InsertOptions.validateQueue(name), limit, clock.instant()))) {
            throw notFound(name);
        }
        wake.accept(name);
    }

    private static NotFoundException notFound(String queue) {
        return new NotFoundException("no queue named " + queue + ": a queue exists once a client that works it has started");
    }

    private List<String> change(Optional<String> queue, boolean paused) {
        List<String> matched = driver.queueSetPaused(new QueuePauseParams(queue, paused, clock.instant()));
        if (queue.isPresent() && matched.isEmpty()) {
            throw notFound(queue.get());
        }
        if (!paused) {
            matched.forEach(wake);
        }
        return matched;
    }
}
