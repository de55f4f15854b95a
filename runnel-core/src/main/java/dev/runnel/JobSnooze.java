package dev.runnel;

import java.time.Duration;

/**
 * Thrown by a worker to run the job again after {@link #duration()}. A snooze does not use up an
 * attempt.
 */
public final class JobSnooze extends JobControl {
    private final Duration duration;

    public JobSnooze(Duration duration) {
        super("snoozed for " + duration);
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException("snooze duration must not be negative: " + duration);
        }
        this.duration = duration;
    }

    public Duration duration() {
        return duration;
    }
}
