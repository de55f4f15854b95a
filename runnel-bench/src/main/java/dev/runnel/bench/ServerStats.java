package dev.runnel.bench;

import java.util.Optional;

/**
 * What the database server did during a drain, where the driver can tell: statements executed,
 * and the server's own process names for CPU accounting.
 */
public interface ServerStats {
    /** The command name of the server's processes in /proc, e.g. {@code postgres}; empty if in-process. */
    Optional<String> processName();

    /** Starts counting statements from zero; returns a reason when statements cannot be counted. */
    Optional<String> resetStatements();

    /** Statements executed since the reset, not counting this query. */
    long statements();

    /** A database with no server of its own (SQLite): nothing to count. */
    ServerStats NONE = new ServerStats() {
        @Override
        public Optional<String> processName() {
            return Optional.empty();
        }

        @Override
        public Optional<String> resetStatements() {
            return Optional.of("the database runs in-process: no server statements to count");
        }

        @Override
        public long statements() {
            return -1;
        }
    };
}
