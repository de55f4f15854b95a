package dev.runnel.testkit;

import java.time.Duration;

/** What a worker did with one job worked inline by {@link RunnelTesting#work}. */
public sealed interface InlineResult {
    /** The worker returned normally. */
    record Completed() implements InlineResult {}

    /** The worker threw {@link dev.runnel.JobSnooze}. */
    record Snoozed(Duration duration) implements InlineResult {}

    /** The worker threw {@link dev.runnel.JobCancel}. */
    record Cancelled(String reason) implements InlineResult {}

    /** The worker threw {@link dev.runnel.JobDiscard}. */
    record Discarded(String reason) implements InlineResult {}

    /** The worker threw anything else: the runtime would retry the job. */
    record Failed(Throwable error) implements InlineResult {}
}
