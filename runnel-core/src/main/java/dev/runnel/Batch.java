package dev.runnel;

import java.util.Optional;

/**
 * A group of jobs with callbacks, inserted with {@link Batches#insert} and added to later with
 * {@link Batches#add} (also by its own jobs while they run). Each callback is a job, inserted
 * exactly once, in the write that stores the outcome that makes its condition first hold, with
 * the batch's counts in its args under the key {@code batch} ({@code id}, {@code total},
 * {@code completed}, {@code cancelled}, {@code discarded}, {@code deleted}):
 * <ul>
 *   <li>{@link Builder#onSuccess}: every job completed;
 *   <li>{@link Builder#onComplete}: every job final (completed, cancelled or discarded) or deleted;
 *   <li>{@link Builder#onDiscard}: a job was discarded.
 * </ul>
 */
public final class Batch {
    private final String name;
    private final InsertRequest onSuccess;
    private final InsertRequest onComplete;
    private final InsertRequest onDiscard;

    private Batch(Builder b) {
        this.name = b.name;
        this.onSuccess = b.onSuccess;
        this.onComplete = b.onComplete;
        this.onDiscard = b.onDiscard;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    public Optional<InsertRequest> onSuccess() {
        return Optional.ofNullable(onSuccess);
    }

    public Optional<InsertRequest> onComplete() {
        return Optional.ofNullable(onComplete);
    }

    public Optional<InsertRequest> onDiscard() {
        return Optional.ofNullable(onDiscard);
    }

    /** Builds a {@link Batch}. */
    public static final class Builder {
        private String name;
        private InsertRequest onSuccess;
        private InsertRequest onComplete;
        private InsertRequest onDiscard;

        private Builder() {}

        /** A name for people, shown by the dashboard and the CLI. */
        public Builder name(String name) {
            this.name = InsertOptions.validateName("batch name", name);
            return this;
        }

        /** The job to insert once every job of the batch completed. */
        public Builder onSuccess(JobArgs args) {
            return onSuccess(args, InsertOptions.NONE);
        }

        public Builder onSuccess(JobArgs args, InsertOptions options) {
            this.onSuccess = callback(args, options);
            return this;
        }

        /** The job to insert once every job of the batch is final. */
        public Builder onComplete(JobArgs args) {
            return onComplete(args, InsertOptions.NONE);
        }

        public Builder onComplete(JobArgs args, InsertOptions options) {
            this.onComplete = callback(args, options);
            return this;
        }

        /** The job to insert once a job of the batch is discarded. */
        public Builder onDiscard(JobArgs args) {
            return onDiscard(args, InsertOptions.NONE);
        }

        public Builder onDiscard(JobArgs args, InsertOptions options) {
            this.onDiscard = callback(args, options);
            return this;
        }

        private static InsertRequest callback(JobArgs args, InsertOptions options) {
            InsertRequest request = new InsertRequest(args, options);
            if (options.unique().isPresent() || options.sequence().isPresent() || options.scheduledAt().isPresent()) {
                throw new IllegalArgumentException(
                        "a batch callback runs when its condition holds: it cannot be unique, scheduled or in a sequence");
            }
            return request;
        }

        public Batch build() {
            return new Batch(this);
        }
    }
}
