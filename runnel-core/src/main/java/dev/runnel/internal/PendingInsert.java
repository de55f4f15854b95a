package dev.runnel.internal;

import dev.runnel.InsertOptions;
import dev.runnel.InsertingJob;
import dev.runnel.JobArgs;
import dev.runnel.UniqueOptions;
import dev.runnel.driver.JobInsertParams;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A job of an insert call on its way through the insert middleware: its options resolved, open to
 * change until {@link #toParams()} turns it into the row to write.
 */
final class PendingInsert implements InsertingJob {
    private final JobArgs args;
    private final String kind;
    private final Instant now;
    private final Instant scheduledAt;
    private final int maxAttempts;
    private final Optional<UniqueOptions> unique;
    private final ArgsCodec codec;
    private String queue;
    private int priority;
    private List<String> tags;
    private Map<String, Object> metadata;
    private boolean written;

    PendingInsert(JobArgs args, InsertOptions given, Instant now, ArgsCodec codec) {
        this.args = args;
        this.codec = codec;
        this.kind = InsertOptions.validateKind(args.kind());
        InsertOptions options = given.orElse(args.insertOptions());
        this.now = now;
        this.queue = InsertOptions.validateQueue(options.queue().orElse(InsertOptions.DEFAULT_QUEUE));
        this.priority = options.priority().orElse(InsertOptions.DEFAULT_PRIORITY);
        this.scheduledAt = options.scheduledAt().orElse(now);
        this.maxAttempts = options.maxAttempts().orElse(InsertOptions.DEFAULT_MAX_ATTEMPTS);
        this.unique = options.unique();
        this.tags = new ArrayList<>(options.tags().orElse(List.of()));
        this.metadata = new LinkedHashMap<>(options.metadata().orElse(Map.of()));
    }

    /** The row to write, checked and encoded; the job cannot be changed afterwards. */
    JobInsertParams toParams() {
        List<String> checked = InsertOptions.validateTags(tags);
        JobInsertParams row = Inserter.params(codec, args, kind, queue, priority, scheduledAt, maxAttempts, checked,
                metadata, unique, now);
        written = true;
        tags = checked;
        metadata = Collections.unmodifiableMap(metadata);
        return row;
    }

    private void checkOpen() {
        if (written) {
            throw new IllegalStateException("job of kind " + kind + " is written already: change it before next.proceed()");
        }
    }

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public JobArgs args() {
        return args;
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public void queue(String queue) {
        checkOpen();
        this.queue = InsertOptions.validateQueue(queue);
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public void priority(int priority) {
        checkOpen();
        this.priority = InsertOptions.validatePriority(priority);
    }

    @Override
    public Instant scheduledAt() {
        return scheduledAt;
    }

    @Override
    public int maxAttempts() {
        return maxAttempts;
    }

    @Override
    public List<String> tags() {
        return tags;
    }

    @Override
    public Map<String, Object> metadata() {
        return metadata;
    }

    @Override
    public String toString() {
        return "InsertingJob[kind=" + kind + ", queue=" + queue + ", priority=" + priority + "]";
    }
}
