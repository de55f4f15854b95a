package dev.runnel.driver;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Rescue up to {@code limit} running jobs: those of the {@code deadClients} (each still expired at
 * the lease's time), and those of no registered client whose attempt started before
 * {@code staleBefore} ({@code threshold} earlier than now, named in their error). A rescued job
 * becomes retryable at once, or discarded when it is out of attempts or this is its
 * {@code maxRescues}th rescue; its error says why and from which client. Internal SPI.
 */
public record JobRescueParams(
        Lease lease, List<String> deadClients, Instant staleBefore, Duration threshold, int maxRescues, int limit) {
    public JobRescueParams {
        deadClients = List.copyOf(deadClients);
        staleBefore = Times.truncate(staleBefore);
    }
}
