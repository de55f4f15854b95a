package dev.runnel;

import java.time.Instant;
import java.util.Optional;

/**
 * The running state of one attempt: its deadline and whether it was cancelled. Supplied by the
 * runtime (and by test helpers); workers read it through {@link Job}.
 */
public interface JobContext {
    /** The reason the attempt was cancelled (timeout, client stop, cancel request), once it was. */
    Optional<String> cancellation();

    /** When the attempt times out, if it has a timeout. */
    Optional<Instant> deadline();

    /** A context that is never cancelled and has no deadline. */
    JobContext NONE = new JobContext() {
        @Override
        public Optional<String> cancellation() {
            return Optional.empty();
        }

        @Override
        public Optional<Instant> deadline() {
            return Optional.empty();
        }
    };
}
