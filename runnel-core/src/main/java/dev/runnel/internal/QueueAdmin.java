package dev.runnel.internal;

import dev.runnel.InsertOptions;
import dev.runnel.KeyLimit;
import dev.runnel.NotFoundException;
import dev.runnel.QueueRow;
import dev.runnel.RateLimit;
import dev.runnel.driver.Driver;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueuePauseParams;
import dev.runnel.driver.QueueRateLimitParams;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * What {@link dev.runnel.Queues} does with the driver: queues paused, resumed and limited across
 * the cluster, and this client's producer of a queue woken when a change may let it claim.
 */
public final class QueueAdmin {
    private final Driver driver;
    private final Clock clock;
    private final Consumer<String> wake;

    /** {@code wake} wakes this client's producer of a queue, if it is started and works it. */
    public QueueAdmin(Driver driver, Clock clock, Consumer<String> wake) {
        this.driver = driver;
        this.clock = clock;
        this.wake = wake;
    }

    public List<QueueRow> list() {
        return driver.queueList();
    }

    public Optional<QueueRow> get(String name) {
        InsertOptions.validateQueue(name);
        return list().stream().filter(q -> q.name().equals(name)).findFirst();
    }

    /** Pauses or resumes queue {@code name}; {@link NotFoundException} when there is no such queue. */
    public void setPaused(String name, boolean paused) {
        change(Optional.of(InsertOptions.validateQueue(name)), paused);
    }

    /** Pauses or resumes every queue; returns how many there are. */
    public int setAllPaused(boolean paused) {
        return change(Optional.empty(), paused).size();
    }

    /** Sets or (empty) lifts queue {@code name}'s global limit, checked by the caller. */
    public void setGlobalLimit(String name, OptionalInt limit) {
        if (!driver.queueSetGlobalLimit(new QueueGlobalLimitParams(InsertOptions.validateQueue(name), limit, clock.instant()))) {
            throw notFound(name);
        }
        wake.accept(name);
    }

    /** Sets or (empty) lifts queue {@code name}'s rate limit. */
    public void setRateLimit(String name, Optional<RateLimit> rate) {
        if (!driver.queueSetRateLimit(new QueueRateLimitParams(InsertOptions.validateQueue(name), rate, clock.instant()))) {
            throw notFound(name);
        }
        wake.accept(name);
    }

    /** Sets or (empty) lifts queue {@code name}'s per-key limit. */
    public void setKeyLimit(String name, Optional<KeyLimit> limit) {
        if (!driver.queueSetKeyLimit(new QueueKeyLimitParams(InsertOptions.validateQueue(name), limit, clock.instant()))) {
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
