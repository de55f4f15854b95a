package dev.runnel;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What makes a job unique: at most one job of its kind with the same key exists in the states
 * the key covers. The key is the kind plus, as chosen, the args (all of them, or some top-level
 * fields), the period the job is scheduled in, and its queue. It is stored hashed with the job,
 * and a unique index in the database refuses a second job with the same key, so two clients
 * inserting at once cannot both succeed; the loser gets the existing job's id back
 * ({@link InsertResult#duplicate()}).
 *
 * <p>The states a key covers always include {@code scheduled}, {@code available},
 * {@code running} and {@code retryable}: a job moves between those by itself (the scheduler,
 * the claim, snoozes, failed attempts and rescues), and so never has to give way to a duplicate
 * on the way. The final states are up to you; by default none, so a key is free again once its
 * job has completed, been cancelled or been discarded. Retrying a final job whose key another
 * job has taken since is refused with the reason.
 *
 * <p>In an at-most-once queue the claim deletes the job, so its key is free as soon as the job
 * starts running: uniqueness there covers only jobs still waiting.
 */
public final class UniqueOptions {
    /** The states every key covers. */
    public static final Set<JobState> REQUIRED_STATES =
            Set.copyOf(EnumSet.of(JobState.SCHEDULED, JobState.AVAILABLE, JobState.RUNNING, JobState.RETRYABLE));

    private final boolean byArgs;
    private final List<String> argsFields;
    private final Duration period;
    private final boolean byQueue;
    private final Set<JobState> states;

    private UniqueOptions(Builder b) {
        this.byArgs = b.byArgs;
        this.argsFields = b.argsFields;
        this.period = b.period;
        this.byQueue = b.byQueue;
        this.states = b.states;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether the args are part of the key. */
    public boolean byArgs() {
        return byArgs;
    }

    /** The top-level args fields in the key; empty with {@link #byArgs()} means all of the args. */
    public List<String> argsFields() {
        return argsFields;
    }

    /** The period whose start (of the job's scheduled time, from the epoch) is part of the key. */
    public Optional<Duration> period() {
        return Optional.ofNullable(period);
    }

    /** Whether the queue is part of the key. */
    public boolean byQueue() {
        return byQueue;
    }

    /** The states in which the key is held. */
    public Set<JobState> states() {
        return states;
    }

    @Override
    public String toString() {
        return "UniqueOptions[byArgs=" + byArgs + ", argsFields=" + argsFields + ", period=" + period
                + ", byQueue=" + byQueue + ", states=" + states + "]";
    }

    /** Builds {@link UniqueOptions}; with nothing set, a job is unique by its kind alone. */
    public static final class Builder {
        private boolean byArgs;
        private List<String> argsFields = List.of();
        private Duration period;
        private boolean byQueue;
        private Set<JobState> states = REQUIRED_STATES;

        private Builder() {}

        /** All of the args are part of the key (as JSON, object fields in name order). */
        public Builder byArgs() {
            this.byArgs = true;
            this.argsFields = List.of();
            return this;
        }

        /**
         * Only these top-level args fields are part of the key. Inserting args that lack one of
         * them is refused.
         */
        public Builder byArgs(String... fields) {
            if (fields.length == 0) {
                throw new IllegalArgumentException("unique byArgs fields must not be empty; use byArgs() for all of the args");
            }
            for (String field : fields) {
                if (field == null || field.isBlank()) {
                    throw new IllegalArgumentException("unique byArgs fields must not be blank");
                }
            }
            this.byArgs = true;
            this.argsFields = List.of(fields);
            return this;
        }

        /**
         * The period the job is scheduled in is part of the key: one job per period, periods
         * counted from the epoch (an hour runs from :00 to :00 UTC). At least one second.
         */
        public Builder byPeriod(Duration period) {
            if (period == null || period.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("unique byPeriod must be at least 1s, was " + period);
            }
            this.period = period;
            return this;
        }

        /** The queue is part of the key. */
        public Builder byQueue() {
            this.byQueue = true;
            return this;
        }

        /**
         * The states in which the key is held; must include {@link #REQUIRED_STATES}, and may add
         * final ones (say, {@code completed}, for a job that must run once ever, or until the
         * cleaner deletes it).
         */
        public Builder states(Set<JobState> states) {
            if (states == null || !states.containsAll(REQUIRED_STATES)) {
                throw new IllegalArgumentException("unique states must include scheduled, available, running and"
                        + " retryable (a job moves between them by itself, and must never meet a duplicate on the way);"
                        + " was " + states);
            }
            this.states = Set.copyOf(EnumSet.copyOf(states));
            return this;
        }

        /** {@link #states(Set)} from a list. */
        public Builder states(JobState... states) {
            return states(Set.of(states));
        }

        public UniqueOptions build() {
            return new UniqueOptions(this);
        }
    }
}
