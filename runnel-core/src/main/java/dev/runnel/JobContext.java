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

    /**
     * Keeps the attempt's output, already encoded as JSON and checked by {@link Job#recordOutput},
     * replacing any recorded before; stored if the attempt completes.
     */
    void recordOutput(String json);

    /** A context that is never cancelled, has no deadline, and keeps no output. */
    JobContext NONE = new JobContext() {
        @Override
        public Optional<String> cancellation() {
            return Optional.empty();
        }

        @Override
        public Optional<Instant> deadline() {
            return Optional.empty();
        }

        @Override
        public void recordOutput(String json) {
            // nowhere to keep it
        }
    };
}
