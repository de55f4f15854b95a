package dev.runnel.internal;

import dev.runnel.JobRow;
import dev.runnel.QueueRow;
import dev.runnel.RunnelConnectException;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.JobClaimParams;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A producer's claims: each one statement through the driver, a claim whose reply was lost found
 * again before anything else is claimed, failures retried with backoff, and the queue's limits read
 * again when the {@link FetchPacer} says so. Used by the producer's loop alone.
 */
final class Claimer {
    private static final Logger LOG = LoggerFactory.getLogger(Claimer.class);
    /** The longest wait after failed claims in a row; the first waits 200 ms, each next twice as long. */
    static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** What a claim came back with: the jobs, how many it asked for, and whether it was limited or a recovery. */
    record Claimed(List<JobRow> jobs, int asked, boolean limited, boolean recovery) {}

    private final String queue;
    private final String clientId;
    private final boolean atMostOnce;
    private final Function<JobClaimParams, List<JobRow>> claim;
    private final Function<JobClaimParams, List<JobRow>> recover;
    private final Supplier<List<QueueRow>> queues;
    private final ClaimClock claimClock;
    /** A claim whose reply was lost, whose jobs are to be found before anything else. */
    private JobClaimParams lostClaim;
    /** Whether the queue has a global, rate or per-key limit, as last read. */
    private boolean limited;
    private int errors;
    private long backoffNanos;

    /**
     * A claimer for {@code queue}: {@code claim} and {@code recover} are the driver's
     * {@code jobClaim} and {@code jobClaimRecover}, {@code queues} its {@code queueList}.
     */
    Claimer(String queue, String clientId, boolean atMostOnce, boolean limited, ClaimClock claimClock,
            Function<JobClaimParams, List<JobRow>> claim, Function<JobClaimParams, List<JobRow>> recover,
            Supplier<List<QueueRow>> queues) {
        this.queue = queue;
        this.clientId = clientId;
        this.atMostOnce = atMostOnce;
        this.limited = limited;
        this.claimClock = claimClock;
        this.claim = claim;
        this.recover = recover;
        this.queues = queues;
    }

    /** Whether the next claim may take jobs ahead of the free slots: not while recovering, nor under a limit. */
    boolean mayClaimAhead() {
        return lostClaim == null && !limited;
    }

    /**
     * Claims up to {@code max} jobs, or first finds those of a claim whose reply was lost. Null when
     * the claim failed: then {@link #backoffNanos()} says when to try again.
     */
    Claimed claim(int max) {
        JobClaimParams params = lostClaim != null ? lostClaim
                : new JobClaimParams(queue, max, claimClock.next(), clientId, atMostOnce, limited);
        boolean recovery = lostClaim != null;
        List<JobRow> jobs;
        try {
            jobs = recovery ? recover.apply(params) : claim.apply(params);
        } catch (RuntimeException e) {
            errors++;
            backoffNanos = backoff(errors);
            LOG.warn("{} for queue {} failed, retrying in {} ms: {}", recovery
                    ? "finding the jobs of a claim whose reply was lost" : "fetching jobs", queue,
                    TimeUnit.NANOSECONDS.toMillis(backoffNanos), e.toString());
            if (!recovery && unclear(e)) {
                // The claim may have committed with its reply lost: its jobs would be running
                // under this live client, which would never know nor be rescued. Find them first.
                lostClaim = params;
            }
            return null;
        }
        errors = 0;
        if (recovery) {
            lostClaim = null;
            if (!jobs.isEmpty()) {
                LOG.warn("found {} jobs of queue {} claimed by a claim whose reply was lost; working them now",
                        jobs.size(), queue);
            }
        }
        return new Claimed(jobs, params.max(), params.limited(), recovery);
    }

    /** After a failed claim, how long to wait before the next. */
    long backoffNanos() {
        return backoffNanos;
    }

    /** How long to wait after {@code errors} failed claims in a row: 200 ms, doubling, at most {@link #MAX_BACKOFF_NANOS}. */
    static long backoff(int errors) {
        return Math.min(MAX_BACKOFF_NANOS, TimeUnit.MILLISECONDS.toNanos(100L << Math.min(errors, 6)));
    }

    /** Whether the queue had a limit when last read. */
    boolean limited() {
        return limited;
    }

    /**
     * Reads whether the queue has a limit now, and returns whether that changed; keeps what it knew
     * when the read fails. At most once there is nothing to read.
     */
    boolean readLimit() {
        if (atMostOnce) {
            return false;
        }
        try {
            boolean was = limited;
            limited = queues.get().stream().anyMatch(q -> q.name().equals(queue) && q.limited());
            if (limited != was) {
                LOG.info("queue {} {} a global, rate or per-key limit", queue, limited ? "has" : "no longer has");
            }
            return limited != was;
        } catch (RuntimeException e) {
            LOG.debug("could not read queue {}'s limit: {}", queue, e.toString());
            return false;
        }
    }

    /**
     * Whether a failed claim may have been applied: not when the database could not be reached or
     * refused the statement, which then did nothing; an at-most-once claim's lost jobs are gone by
     * that mode's contract, so it has nothing to find either.
     */
    private boolean unclear(RuntimeException e) {
        return !atMostOnce && !(e instanceof RunnelConnectException) && !(e instanceof DataRejectedException);
    }
}
