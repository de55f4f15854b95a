package dev.runnel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.runnel.internal.JsonText;
import dev.runnel.json.RunnelJson;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A job handed to its {@link Worker}: the decoded args, the stored row and the attempt's context.
 *
 * @param <T> the args type
 */
public final class Job<T extends JobArgs> {
    /**
     * The most an output may take, encoded as JSON: {@value} bytes (32 KiB). Output is a small
     * result kept on the job's row, read with every read of it; larger results belong elsewhere
     * (a table, an object store), with a reference to them as the output.
     */
    public static final int MAX_OUTPUT_BYTES = 32 * 1024;

    /** The SLF4J MDC key that holds the id of the job being worked on its thread: {@value}. */
    public static final String MDC_ID = "runnel.job.id";
    /** The MDC key of the kind of the job being worked: {@value}. */
    public static final String MDC_KIND = "runnel.job.kind";
    /** The MDC key of the queue of the job being worked: {@value}. */
    public static final String MDC_QUEUE = "runnel.job.queue";
    /** The MDC key of the attempt being worked, 1 on the first: {@value}. */
    public static final String MDC_ATTEMPT = "runnel.job.attempt";

    private static final ObjectReader METADATA = RunnelJson.READER.forType(new TypeReference<LinkedHashMap<String, Object>>() {});

    private final JobRow row;
    private final T args;
    private final JobContext context;
    /** The metadata decoded, on first use: most jobs never ask. */
    private volatile Map<String, Object> metadata;

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

    /**
     * The job's metadata, as given at insert (and by {@link InsertMiddleware}s), decoded from its
     * JSON object; read-only.
     */
    public Map<String, Object> metadata() {
        Map<String, Object> m = metadata;
        if (m == null) {
            try {
                m = Collections.unmodifiableMap(METADATA.readValue(row.metadata()));
            } catch (JsonProcessingException e) {
                throw new RunnelException("the metadata of job " + row.id() + " is not a JSON object: "
                        + e.getOriginalMessage(), e);
            }
            metadata = m;
        }
        return m;
    }

    /**
     * How many times this job was snoozed before this attempt ({@link JobSnooze} does not use up an
     * attempt, so {@link #attempt()} does not count them).
     */
    public int snoozes() {
        return row.snoozes();
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

    /**
     * Records a small result of this attempt, readable afterwards with {@link JobRow#output()} (and
     * shown by {@code runnel jobs get}). It is encoded as JSON at once, and stored with the job's
     * completion, under the key {@code output} of its metadata; a later call replaces an earlier one.
     * Only a completed attempt stores it: an attempt that fails, snoozes, or is cancelled or
     * discarded records its error, not its output, so that a job's output is always that of the
     * attempt that completed it. In an {@link Runnel.Delivery#AT_MOST_ONCE} queue a completed job
     * leaves no row, so its output is kept nowhere; the call still succeeds.
     *
     * @throws IllegalArgumentException when {@code value} is null, cannot be encoded as JSON, holds
     *     a NUL character (which Postgres cannot store) or a lone surrogate (which UTF-8 cannot), or
     *     takes more than {@value #MAX_OUTPUT_BYTES} bytes encoded
     */
    public void recordOutput(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("output must not be null");
        }
        String json;
        try {
            json = RunnelJson.WRITER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the output of job " + row.id() + " cannot be encoded as JSON: "
                    + e.getOriginalMessage(), e);
        }
        long size = JsonText.scan(json);
        if (size < 0) {
            throw new IllegalArgumentException("the output of job " + row.id() + ": "
                    + JsonText.problemAt(json, (int) (-1 - size)));
        }
        if (size > MAX_OUTPUT_BYTES) {
            throw new IllegalArgumentException("the output of job " + row.id() + " is " + size
                    + " bytes as JSON, more than the " + MAX_OUTPUT_BYTES + " allowed: store a large result"
                    + " elsewhere and record where it is");
        }
        context.recordOutput(json);
    }

    @Override
    public String toString() {
        return "Job[id=" + row.id() + ", kind=" + row.kind() + ", attempt=" + row.attempt() + "]";
    }
}
