package dev.runnel.postgres;

import dev.runnel.Job;
import dev.runnel.Worker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Works {@link DrainJob}s by recording each id it is handed, then sleeping a little if asked. Ids
 * are kept in a list, not a set, so that a job worked twice by one client shows up as a duplicate.
 */
final class DrainWorker implements Worker<DrainJob> {
    private final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private final Duration sleep;

    DrainWorker(Duration sleep) {
        this.sleep = sleep;
    }

    @Override
    public void work(Job<DrainJob> job) throws InterruptedException {
        // Recorded on arrival: a second run of the same job is a duplicate even if it never finished.
        ids.add(job.id());
        count.incrementAndGet();
        if (!sleep.isZero()) {
            Thread.sleep(sleep);
        }
    }

    /** How many jobs this worker was handed so far; cheap enough to poll. */
    int count() {
        return count.get();
    }

    List<Long> ids() {
        return List.copyOf(ids);
    }
}
