package dev.runnel.internal;

import dev.runnel.LeaderRow;
import dev.runnel.driver.Driver;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.LeaderResignParams;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes and keeps the leader's lease: every third of the lease the leader asks for it, which renews
 * it, and every other client reads it and asks for it only once it has run out or is free, to take
 * it over. So after a leader dies another one leads within about a lease and a third; at a clean
 * stop the leader gives the lease up, and another takes over at its next look.
 *
 * <p>This client counts itself leader only until its lease would end, measured on the monotonic
 * clock from before it asked: a client paused past its lease stops leading by its own reckoning as
 * soon as it resumes, and the maintenance statements check the lease in the database besides.
 */
public final class Elector extends Ticker implements Leadership {
    private static final Logger LOG = LoggerFactory.getLogger(Elector.class);

    private final Driver driver;
    private final Clock clock;
    private final String clientId;
    private final Duration lease;
    private final ClientHealth health;
    /** Woken when this client wins the lease it did not hold: they sleep long while it follows. */
    private final List<Ticker> onElected = new CopyOnWriteArrayList<>();
    /** Until when (a {@link System#nanoTime()}) this client leads; meaningful while {@link #leading}. */
    private volatile long leadsUntilNanos;
    private volatile boolean leading;

    public Elector(Driver driver, Clock clock, String clientId, Duration lease, ClientHealth health) {
        super("elector", lease.dividedBy(3));
        this.driver = driver;
        this.clock = clock;
        this.clientId = clientId;
        this.lease = lease;
        this.health = health;
    }

    /** Wakes {@code ticker} whenever this client becomes the leader. */
    void wakeOnElection(Ticker ticker) {
        onElected.add(ticker);
    }

    @Override
    public boolean isLeader() {
        return leading && System.nanoTime() - leadsUntilNanos < 0;
    }

    @Override
    protected boolean tick() {
        long asked = System.nanoTime();
        Instant now = clock.instant();
        boolean won;
        try {
            won = !heldByAnother(now)
                    && driver.leaderAttemptElect(new LeaderElectParams(clientId, now, now.plus(lease)));
            health.succeeded();
        } catch (RuntimeException e) {
            health.failed();
            throw e;
        }
        boolean was = isLeader();
        if (won) {
            leadsUntilNanos = asked + lease.toNanos();
            leading = true;
            if (!was) {
                LOG.info("client {} is now the leader", clientId);
                onElected.forEach(Ticker::wakeUp);
            }
        } else {
            leading = false;
            if (was) {
                LOG.warn("client {} lost the leadership to another client", clientId);
            }
        }
        return false;
    }

    /**
     * Whether another client holds a lease that has not ended at {@code now}, as one read tells; false
     * while this client leads, which renews its lease by asking. So a follower reads where it would
     * write: an election that cannot be won takes no lock and writes nothing.
     */
    private boolean heldByAnother(Instant now) {
        if (isLeader()) {
            return false;
        }
        Optional<LeaderRow> held = driver.leaderGet();
        return held.isPresent() && !held.get().leaderId().equals(clientId) && held.get().expiresAt().isAfter(now);
    }

    /** Stops asking and, when leading, gives the lease up so that another client can take over at once. */
    @Override
    public void stop() {
        super.stop();
        if (leading) {
            leading = false;
            try {
                driver.leaderResign(new LeaderResignParams(clientId));
            } catch (RuntimeException e) {
                LOG.warn("client {} could not resign the leadership; it passes on when the lease ends: {}",
                        clientId, e.toString());
            }
        }
    }
}
