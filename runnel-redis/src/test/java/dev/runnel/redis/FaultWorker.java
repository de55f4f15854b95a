package dev.runnel.redis;

import dev.runnel.Job;
import dev.runnel.Worker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * Works {@link FaultJob}s by noting each id on arrival (a second run of a job is a duplicate even
 * if it never finished), then sleeping {@code work}. Ids are kept in a list, not a set, so that a
 * job worked twice by one client shows.
 */
final class FaultWorker implements Worker<FaultJob> {
    private final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private final Duration work;
    private final LongConsumer onArrival;

    FaultWorker(Duration work) {
        this(work, id -> {});
    }

    FaultWorker(Duration work, LongConsumer onArrival) {
        this.work = work;
        this.onArrival = onArrival;
    }

    @Override
    public void work(Job<FaultJob> job) throws InterruptedException {
        ids.add(job.id());
        count.incrementAndGet();
        onArrival.accept(job.id());
        if (!work.isZero()) {
            Thread.sleep(work);
        }
    }

    int count() {
        return count.get();
    }

    List<Long> ids() {
        return List.copyOf(ids);
    }
}
