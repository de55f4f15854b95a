package dev.runnel.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The safety poll of a client's queues while it hears its driver's notifications: every
 * {@code fetchSafetyPollInterval} (plus up to 10% jitter), one look at which of its queues have jobs
 * due ({@link dev.runnel.driver.Driver#jobQueuesDue}), after which the producers of those queues
 * claim, as at a poll (a claim that finds nothing then does not slow their claims for inserts).
 * Meanwhile the producers of queues without limits do not poll at all, so an idle client wakes
 * once an interval, not once per queue (see docs/benchmarks.md, idle clients). A job that no
 * notification announced waits at most the interval and its jitter.
 *
 * <p>While the client does not listen, it neither looks nor signals: every producer polls at
 * {@code fetchPollInterval}. A failed look signals every queue, whose claims then meet the failure
 * and handle it as claims do.
 */
final class DueQueues extends Ticker {
    private static final Logger LOG = LoggerFactory.getLogger(DueQueues.class);

    private final List<String> queues;
    private final Function<List<String>, List<String>> lookUp;
    private final BooleanSupplier listening;
    private final Consumer<String> signal;

    /**
     * @param lookUp of the queues given, those that may have jobs due now
     * @param listening whether the client hears notifications now
     * @param signal has the producer of a queue claim, as at a poll
     */
    DueQueues(Duration interval, List<String> queues, Function<List<String>, List<String>> lookUp,
            BooleanSupplier listening, Consumer<String> signal) {
        super("fetch-safety", interval);
        this.queues = List.copyOf(queues);
        this.lookUp = lookUp;
        this.listening = listening;
        this.signal = signal;
    }

    @Override
    protected boolean tick() {
        if (!listening.getAsBoolean()) {
            return false; // the producers poll themselves
        }
        List<String> due;
        try {
            due = lookUp.apply(queues);
        } catch (RuntimeException e) {
            LOG.debug("the safety poll's look failed; every queue claims: {}", e.toString());
            due = queues;
        }
        due.forEach(signal);
        return false;
    }

    @Override
    protected long waitNanos() {
        return FetchPacer.jittered(super.waitNanos());
    }
}
