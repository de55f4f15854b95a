package dev.runnel;

import java.util.Locale;

/** The states of a job. {@link #isFinal()} states are never left again. */
public enum JobState {
    /**
     * Waiting for other jobs: a workflow task for the tasks it runs after, a sequence's job for
     * the one before it. Never claimed; it becomes available (or scheduled) in the same write
     * that stores the outcome it waited for.
     */
    PENDING,
    /** Ready to be claimed. */
    AVAILABLE,
    /** Waiting for its scheduled time. */
    SCHEDULED,
    /** Claimed by a client and being worked. */
    RUNNING,
    /** Failed an attempt; waiting for its next one. */
    RETRYABLE,
    /** Worked successfully. Final. */
    COMPLETED,
    /** Cancelled by its worker or by request. Final. */
    CANCELLED,
    /** Failed for good: out of attempts, undecodable, or discarded by its worker. Final. */
    DISCARDED;

    private final String dbName = name().toLowerCase(Locale.ROOT);

    /** Whether the job has reached an outcome it will never leave. */
    public boolean isFinal() {
        return this == COMPLETED || this == CANCELLED || this == DISCARDED;
    }

    /** The name stored in the database, e.g. {@code available}. */
    public String dbName() {
        return dbName;
    }

    /** The state named {@code name} as stored in the database. */
    public static JobState fromDb(String name) {
        return switch (name) {
            case "pending" -> PENDING;
            case "available" -> AVAILABLE;
            case "scheduled" -> SCHEDULED;
            case "running" -> RUNNING;
            case "retryable" -> RETRYABLE;
            case "completed" -> COMPLETED;
            case "cancelled" -> CANCELLED;
            case "discarded" -> DISCARDED;
            default -> throw new IllegalArgumentException("unknown job state: " + name);
        };
    }
}
