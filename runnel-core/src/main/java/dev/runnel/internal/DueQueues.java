package dev.runnel.internal;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * One look at which of a client's queues have jobs due, shared by its producers' safety polls.
 * While a client hears its driver's notifications, each idle queue polls only as a safety net
 * ({@code fetchSafetyPollInterval}); instead of each producer claiming from its queue, the first
 * whose poll comes due asks the driver once for all of the client's queues
 * ({@link dev.runnel.driver.Driver#jobQueuesDue}), and producers whose poll comes due within
 * {@link #MAX_AGE_NANOS} of that look claim only if their queue was named. 20 clients of 50 idle
 * queues, polling every 30 s, made 33 claims a second, one per queue and poll; with this, about
 * one look per client and poll. A job that no notification announced waits at most the safety
 * poll interval and this age.
 *
 * <p>No lock is held across the look: a producer that comes due while another looks goes by the
 * last look, or claims when there is none, as it does when its look fails.
 */
final class DueQueues {
    /** How long one look answers for: about the spread of the producers' jittered polls. */
    static final long MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private record Look(long atNanos, Set<String> due) {}

    private final List<String> queues;
    private final Function<List<String>, List<String>> lookUp;
    private final AtomicReference<Look> last = new AtomicReference<>();
    private final AtomicBoolean looking = new AtomicBoolean();

    /** @param lookUp of the queues given, those that may have jobs due now */
    DueQueues(List<String> queues, Function<List<String>, List<String>> lookUp) {
        this.queues = List.copyOf(queues);
        this.lookUp = lookUp;
    }

    /** Whether {@code queue}'s safety poll, due at {@code now} (a {@link System#nanoTime()}), is to claim. */
    boolean mayHaveJobs(String queue, long now) {
        Look look = last.get();
        if (look == null || now - look.atNanos() >= MAX_AGE_NANOS) {
            if (!looking.compareAndSet(false, true)) {
                // Another producer looks now: the last look, as old as that look takes, or a claim.
                return look == null || look.due().contains(queue);
            }
            try {
                look = new Look(now, Set.copyOf(lookUp.apply(queues)));
                last.set(look);
            } catch (RuntimeException e) {
                return true; // the claim meets the same failure and handles it as claims do
            } finally {
                looking.set(false);
            }
        }
        return look.due().contains(queue);
    }

    /**
     * Whether the safety poll of {@code queue} due now is to be skipped, the look not naming it;
     * if so, {@code pacer} counts it as a claim of {@code free} that found nothing. It reads no
     * limits: while the client listens, a limit set anywhere is announced.
     */
    boolean skips(String queue, FetchPacer pacer, int free) {
        long now = System.nanoTime();
        if (mayHaveJobs(queue, now)) {
            return false;
        }
        pacer.fetching(now, true);
        pacer.claimed(now, free, 0, false, false);
        return true;
    }

    /** Drops the last look: what it said may be out of date (notifications were lost meanwhile). */
    void forget() {
        last.set(null);
    }
}
