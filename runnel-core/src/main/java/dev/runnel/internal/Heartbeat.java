package dev.runnel.internal;

import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientStopParams;
import dev.runnel.driver.Driver;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this client registered as alive: every interval it moves its expiry a heartbeat timeout
 * ahead. Once its expiry passes without a heartbeat, the leader's rescuer takes its running jobs.
 * At a clean stop it marks the client stopped, expired at once, so that any job left running is
 * rescued without waiting for the timeout.
 */
public final class Heartbeat extends Ticker {
    private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);

    private final Driver driver;
    private final Clock clock;
    private final String clientId;
    private final Duration timeout;
    private final String metadata;
    private final ClientHealth health;

    public Heartbeat(Driver driver, Clock clock, String clientId, Duration interval, Duration timeout, String metadata,
            ClientHealth health) {
        super("heartbeat", interval);
        this.driver = driver;
        this.clock = clock;
        this.clientId = clientId;
        this.timeout = timeout;
        this.metadata = metadata;
        this.health = health;
    }

    /** Registers the client now, on the caller's thread: a client that cannot register does not start. */
    public void register() {
        beat();
    }

    @Override
    protected boolean tick() {
        try {
            beat();
        } catch (RuntimeException e) {
            health.failed();
            throw e;
        }
        return false;
    }

    private void beat() {
        Instant now = clock.instant();
        driver.clientHeartbeat(new ClientHeartbeatParams(clientId, now, now.plus(timeout), metadata));
        health.succeeded();
    }

    /** Stops heartbeating and records the clean stop. */
    @Override
    public void stop() {
        super.stop();
        try {
            driver.clientStop(new ClientStopParams(clientId, clock.instant()));
        } catch (RuntimeException e) {
            LOG.warn("could not record the stop of client {}; it counts as dead once its heartbeat expires: {}",
                    clientId, e.toString());
        }
    }
}
