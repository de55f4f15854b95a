package dev.runnel;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * Options for inserting a job. Every option is optional: an unset option falls back to the
 * per-kind default ({@link JobArgs#insertOptions()}), then to the global default named here.
 * Values are validated when built; an invalid one throws {@link IllegalArgumentException} naming
 * the option, before anything is written.
 */
public final class InsertOptions {
    /** The queue used when none is given: {@value}. */
    public static final String DEFAULT_QUEUE = "default";
    /** The priority used when none is given: {@value} (1 is worked first, 4 last). */
    public static final int DEFAULT_PRIORITY = 1;
    /** The attempts a job gets when none is given: {@value}. */
    public static final int DEFAULT_MAX_ATTEMPTS = 25;
    /** The longest queue or kind name accepted: {@value} characters. */
    public static final int MAX_NAME_LENGTH = 128;
    /** The longest tag accepted: {@value} characters. */
    public static final int MAX_TAG_LENGTH = 255;
    /**
     * The latest {@link Builder#scheduledAt} stored, 9999-12-31T23:59:59.999999Z, the last instant
     * with a four-digit year: a later time, such as {@link Instant#MAX} for "never", is stored as
     * this one, which still means never. Both databases keep it (Postgres' timestamptz reaches the
     * year 294276; SQLite stores microseconds in a 64-bit integer), and every tool that reads the
     * tables renders it. Snooze and retry delays stop at it too.
     */
    public static final Instant MAX_SCHEDULED_AT = Instant.parse("9999-12-31T23:59:59.999999Z");
    /**
     * The earliest {@link Builder#scheduledAt} accepted, 0001-01-01T00:00:00Z, the first instant
     * with a four-digit year: an earlier one is refused. Times before 1970 are ordinary (a job
     * back-dated to come first, a test clock) and kept as given; a time before the year 1 is
     * almost always a sentinel such as {@link Instant#MIN} that was not meant as a time, and
     * Postgres counts those years differently (there is no year 0 before 1 BC), so it is refused
     * rather than moved.
     */
    public static final Instant MIN_SCHEDULED_AT = Instant.parse("0001-01-01T00:00:00Z");

    /** No options: everything falls back to its default. */
    public static final InsertOptions NONE = builder().build();

    private static final Pattern TAG = Pattern.compile("[\\w][\\w-]*");

    private final String queue;
    private final Integer priority;
    private final Instant scheduledAt;
    private final Integer maxAttempts;
    private final List<String> tags;
    private final Map<String, Object> metadata;
    private final UniqueOptions unique;
    private final String sequence;
    private final Boolean sequenceMovesOnDiscard;

    private InsertOptions(Builder b) {
        this.queue = b.queue;
        this.priority = b.priority;
        this.scheduledAt = b.scheduledAt;
        this.maxAttempts = b.maxAttempts;
        this.tags = b.tags;
        this.metadata = b.metadata;
        this.unique = b.unique;
        this.sequence = b.sequence;
        this.sequenceMovesOnDiscard = b.sequenceMovesOnDiscard;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Optional<String> queue() {
        return Optional.ofNullable(queue);
    }

    public OptionalInt priority() {
        return priority == null ? OptionalInt.empty() : OptionalInt.of(priority);
    }

    public Optional<Instant> scheduledAt() {
        return Optional.ofNullable(scheduledAt);
    }

    public OptionalInt maxAttempts() {
        return maxAttempts == null ? OptionalInt.empty() : OptionalInt.of(maxAttempts);
    }

    public Optional<List<String>> tags() {
        return Optional.ofNullable(tags);
    }

    public Optional<Map<String, Object>> metadata() {
        return Optional.ofNullable(metadata);
    }

    /** What makes the job unique, when it is. */
    public Optional<UniqueOptions> unique() {
        return Optional.ofNullable(unique);
    }

    /** The sequence the job runs in, one job at a time in insert order, when it is in one. */
    public Optional<String> sequence() {
        return Optional.ofNullable(sequence);
    }

    /**
     * Whether the job runs once the job before it in its sequence is discarded; by default a
     * discarded predecessor holds it until that job is retried and completes, or is cancelled or
     * deleted.
     */
    public boolean sequenceMovesOnDiscard() {
        return sequenceMovesOnDiscard != null && sequenceMovesOnDiscard;
    }

    /** These options, with each unset option taken from {@code defaults}. */
    public InsertOptions orElse(InsertOptions defaults) {
        Builder b = new Builder();
        b.queue = queue != null ? queue : defaults.queue;
        b.priority = priority != null ? priority : defaults.priority;
        b.scheduledAt = scheduledAt != null ? scheduledAt : defaults.scheduledAt;
        b.maxAttempts = maxAttempts != null ? maxAttempts : defaults.maxAttempts;
        b.tags = tags != null ? tags : defaults.tags;
        b.metadata = metadata != null ? metadata : defaults.metadata;
        b.unique = unique != null ? unique : defaults.unique;
        b.sequence = sequence != null ? sequence : defaults.sequence;
        b.sequenceMovesOnDiscard = sequenceMovesOnDiscard != null ? sequenceMovesOnDiscard : defaults.sequenceMovesOnDiscard;
        return new InsertOptions(b);
    }

    /** Checks a queue name, throwing {@link IllegalArgumentException} naming the option. */
    public static String validateQueue(String queue) {
        return validateName("queue", queue);
    }

    /** Checks a tag: word-like, throwing {@link IllegalArgumentException} naming the option. */
    public static String validateTag(String tag) {
        if (tag == null || tag.length() > MAX_TAG_LENGTH || !TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException(
                    "tags must be word-like ([\\w][\\w-]*, at most " + MAX_TAG_LENGTH + " characters), was '" + tag + "'");
        }
        return tag;
    }

    /** Checks a job kind, throwing {@link IllegalArgumentException} naming the option. */
    public static String validateKind(String kind) {
        return validateName("kind", kind);
    }

    /** Checks a priority (1 to 4), throwing {@link IllegalArgumentException} naming the option. */
    public static int validatePriority(int priority) {
        if (priority < 1 || priority > 4) {
            throw new IllegalArgumentException("priority must be between 1 and 4, was " + priority);
        }
        return priority;
    }

    /**
     * Checks tags (each word-like, {@code [\w][\w-]*}, at most {@value #MAX_TAG_LENGTH} characters),
     * throwing {@link IllegalArgumentException} naming the option; returns an immutable copy.
     */
    public static List<String> validateTags(List<String> tags) {
        if (tags == null) {
            throw new IllegalArgumentException("tags must not be null");
        }
        tags.forEach(InsertOptions::validateTag);
        return List.copyOf(tags);
    }

    /**
     * Checks a name (queue, kind, periodic job): 1 to 128 characters, no control characters, no
     * lone surrogates, no outer whitespace.
     */
    static String validateName(String option, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(option + " must not be blank");
        }
        if (value.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    option + " must be at most " + MAX_NAME_LENGTH + " characters, was " + value.length());
        }
        if (!value.strip().equals(value)) {
            throw new IllegalArgumentException(option + " must not start or end with whitespace: '" + value + "'");
        }
        // NUL and other control characters are refused here, not by the database at write time:
        // Postgres rejects NUL in text, and a name with a newline or escape code garbles every log
        // line and listing it appears in.
        // A lone surrogate (half of a character, from a string cut in the middle of one) cannot be
        // encoded as UTF-8: the driver would store '?' in its place, a name other than the one given.
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException(option + " must not contain control characters, found U+"
                        + String.format("%04X", (int) c) + " at index " + i);
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                } else {
                    throw new IllegalArgumentException(option + " must not contain a lone surrogate (half of a"
                            + " character, which cannot be stored as UTF-8), found U+" + String.format("%04X", (int) c)
                            + " at index " + i);
                }
            }
        }
        return value;
    }

    @Override
    public String toString() {
        return "InsertOptions[queue=" + queue + ", priority=" + priority + ", scheduledAt=" + scheduledAt
                + ", maxAttempts=" + maxAttempts + ", tags=" + tags + ", metadata=" + metadata + ", unique=" + unique
                + ", sequence=" + sequence + ", sequenceMovesOnDiscard=" + sequenceMovesOnDiscard + "]";
    }

    /** Builds {@link InsertOptions}; each setter validates its value at once. */
    public static final class Builder {
        private String queue;
        private Integer priority;
        private Instant scheduledAt;
        private Integer maxAttempts;
        private List<String> tags;
        private Map<String, Object> metadata;
        private UniqueOptions unique;
        private String sequence;
        private Boolean sequenceMovesOnDiscard;

        private Builder() {}

        /** The queue to insert into; default {@value InsertOptions#DEFAULT_QUEUE}. */
        public Builder queue(String queue) {
            this.queue = validateQueue(queue);
            return this;
        }

        /** 1 (worked first) to 4 (last); default {@value InsertOptions#DEFAULT_PRIORITY}. */
        public Builder priority(int priority) {
            this.priority = validatePriority(priority);
            return this;
        }

        /**
         * When the job becomes available; default now. A time in the past means now (and sorts
         * the job before those scheduled later). Stored to the microsecond; a time after
         * {@link #MAX_SCHEDULED_AT} (such as {@link Instant#MAX}, for a job that waits until it is
         * retried by hand) is stored as that time, and one before {@link #MIN_SCHEDULED_AT}
         * (such as {@link Instant#MIN}) is refused.
         */
        public Builder scheduledAt(Instant scheduledAt) {
            if (scheduledAt == null) {
                throw new IllegalArgumentException("scheduledAt must not be null");
            }
            if (scheduledAt.isBefore(MIN_SCHEDULED_AT)) {
                throw new IllegalArgumentException("scheduledAt must not be before " + MIN_SCHEDULED_AT + ", was "
                        + scheduledAt);
            }
            this.scheduledAt = scheduledAt.isAfter(MAX_SCHEDULED_AT) ? MAX_SCHEDULED_AT : scheduledAt;
            return this;
        }

        /** Attempts before the job is discarded, at least 1; default {@value InsertOptions#DEFAULT_MAX_ATTEMPTS}. */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /** Word-like tags ({@code [\w][\w-]*}, at most 255 characters each) to find jobs by. */
        public Builder tags(List<String> tags) {
            this.tags = validateTags(tags);
            return this;
        }

        /** Tags, as {@link #tags(List)}. */
        public Builder tags(String... tags) {
            return tags(List.of(tags));
        }

        /** Free-form metadata stored with the job as a JSON object. */
        public Builder metadata(Map<String, ?> metadata) {
            if (metadata == null) {
                throw new IllegalArgumentException("metadata must not be null");
            }
            this.metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
            return this;
        }

        /** Makes the job unique: see {@link UniqueOptions}. */
        public Builder unique(UniqueOptions unique) {
            if (unique == null) {
                throw new IllegalArgumentException("unique must not be null");
            }
            this.unique = unique;
            return this;
        }

        /**
         * Runs the job in sequence {@code key}: jobs of one key run one at a time, across every
         * client, in the order they were inserted, each released by the completion of the one
         * before it. A failed job holds its sequence while it is retried; a discarded one holds it
         * too, unless the job after it {@linkplain #sequenceMovesOnDiscard moves on}; a cancelled
         * or deleted one lets it move on.
         * Not for a queue this client works {@linkplain Runnel.Delivery#AT_MOST_ONCE at most once}.
         */
        public Builder sequence(String key) {
            this.sequence = validateName("sequence", key);
            return this;
        }

        /** Whether the job runs once the job before it in its sequence is discarded (default: it waits); see {@link #sequence}. */
        public Builder sequenceMovesOnDiscard(boolean movesOn) {
            this.sequenceMovesOnDiscard = movesOn;
            return this;
        }

        public InsertOptions build() {
            return new InsertOptions(this);
        }
    }
}
