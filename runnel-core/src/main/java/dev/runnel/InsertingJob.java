package dev.runnel;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One job of an insert call as an {@link InsertMiddleware} sees it: its options resolved (the
 * insert's own, then the kind's defaults, then the global ones), and open to change until the
 * chain reaches the write. Setters check their value at once; the tags and the metadata are
 * mutable collections, checked (tags as {@link InsertOptions.Builder#tags}, metadata as JSON) when
 * the chain reaches the write, before anything is written. Once written, the job can no longer be
 * changed: a setter throws {@link IllegalStateException}.
 */
public interface InsertingJob {
    /** The job's kind. */
    String kind();

    /** The job's args, as given (not changeable: they are the job's input). */
    JobArgs args();

    /** The queue the job goes to. */
    String queue();

    /** Sends the job to another queue; checked as {@link InsertOptions.Builder#queue}. */
    void queue(String queue);

    /** The job's priority, 1 (first) to 4. */
    int priority();

    /** Changes the job's priority, 1 to 4. */
    void priority(int priority);

    /** When the job becomes available: the insert's time unless it was scheduled. */
    Instant scheduledAt();

    /** How many attempts the job gets. */
    int maxAttempts();

    /** The job's tags: a mutable list; each must be word-like. */
    List<String> tags();

    /**
     * The job's metadata: a mutable map, stored as a JSON object, so its values must be
     * encodable by Jackson. The key {@code output} is where a completed job's output is kept
     * ({@link Job#recordOutput}).
     */
    Map<String, Object> metadata();
}
