package dev.runnel;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A job handed to its {@link Worker}: the decoded args, the stored row and the attempt's context.
 *
 * @param <T> the args type
 */
public final class Job<T extends JobArgs> {
    private final JobRow row;
    private final T args;
    private final JobContext context;

    /** Built by the runtime, or by a test that works a job inline. */
    public Job(JobRow row, T args, JobContext context) {
        this.row = row;
        this.args = args;
        this.context = context;
    }

    public T args() {
        return args;
    }

    public long id() {
        return row.id();
    }

    public String kind() {
        return row.kind();
    }

    public String queue() {
        return row.queue();
    }

    public int priority() {
        return row.priority();
    }

    /** This attempt's number: 1 on the first. */
    public int attempt() {
        return row.attempt();
    }

    public int maxAttempts() {
        return row.maxAttempts();
    }

    public Instant createdAt() {
        return row.createdAt();
    }

    public List<String> tags() {
        return row.tags();
    }

    /** The errors of earlier attempts. */
    public List<JobError> errors() {
        return row.errors();
    }

    /** The job as it was claimed. */
    public JobRow row() {
        return row;
    }

    /** Whether this attempt was cancelled; a long-running worker should check and return. */
    public boolean isCancelled() {
        return context.cancellation().isPresent();
    }

    /** Why this attempt was cancelled, once it was. */
    public Optional<String> cancellation() {
        return context.cancellation();
    }

    /** When this attempt times out, if it has a timeout. */
    public Optional<Instant> deadline() {
        return context.deadline();
    }

    @Override
    public String toString() {
        return "Job[id=" + row.id() + ", kind=" + row.kind() + ", attempt=" + row.attempt() + "]";
    }
}
