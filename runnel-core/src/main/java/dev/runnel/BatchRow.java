package dev.runnel;

import java.time.Instant;
import java.util.Optional;

/**
 * A batch as stored: its counts, kept up to date by every outcome of its jobs (not counted on
 * read, so a batch of any size answers at once), and the callback jobs inserted so far.
 *
 * @param total jobs inserted into it
 * @param completed, cancelled, discarded its jobs in those states
 * @param deleted its jobs deleted before they were final
 */
public record BatchRow(long id, Optional<String> name, Instant createdAt, long total, long completed, long cancelled,
        long discarded, long deleted, Optional<Long> successJob, Optional<Long> completeJob, Optional<Long> discardJob) {

    /** Its jobs that are final (or deleted before they were). */
    public long finished() {
        return completed + cancelled + discarded + deleted;
    }

    /** Its jobs still to finish. */
    public long unfinished() {
        return total - finished();
    }

    /** Whether every job it holds is final. */
    public boolean isComplete() {
        return total > 0 && finished() == total;
    }
}
