package dev.runnel.testkit;

import java.time.Duration;
import java.util.Optional;

/** What a worker did with one job worked inline by {@link RunnelTesting#work}. */
public sealed interface InlineResult {
    /**
     * The worker returned normally, with the output it recorded ({@link dev.runnel.Job#recordOutput}),
     * as JSON, if it recorded one.
     */
    record Completed(Optional<String> output) implements InlineResult {
        public Completed {
            if (output == null) {
                throw new IllegalArgumentException("output must not be null: use Optional.empty()");
            }
        }

        /** Completed without output. */
        public Completed() {
            this(Optional.empty());
        }
    }

    /** The worker threw {@link dev.runnel.JobSnooze}. */
    record Snoozed(Duration duration) implements InlineResult {}

    /** The worker threw {@link dev.runnel.JobCancel}. */
    record Cancelled(String reason) implements InlineResult {}

    /** The worker threw {@link dev.runnel.JobDiscard}. */
    record Discarded(String reason) implements InlineResult {}

    /** The worker threw anything else: the runtime would retry the job. */
    record Failed(Throwable error) implements InlineResult {}
}
