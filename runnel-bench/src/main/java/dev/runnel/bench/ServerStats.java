package dev.runnel.bench;

import java.util.Optional;

/**
 * What the database server did during a drain, where the driver can tell: statements (or
 * commands) executed, scripts called, and the server's CPU, from the server itself or from the
 * CPU of its processes.
 */
public interface ServerStats {
    /** The command name of the server's processes in /proc, e.g. {@code postgres}; empty if in-process. */
    Optional<String> processName();

    /** Starts counting statements from zero; returns a reason when statements cannot be counted. */
    Optional<String> resetStatements();

    /** Statements executed since the reset, not counting this query. */
    long statements();

    /** What {@link #statements()} counts, for the drain's table: {@code SQL statements} unless the server runs others. */
    default String statementsName() {
        return "SQL statements";
    }

    /**
     * The {@code n} statements (or commands) called most since the reset, each with its calls, most
     * called first; empty where the server cannot tell.
     */
    default java.util.Map<String, Long> topStatements(int n) {
        return java.util.Map.of();
    }

    /**
     * Calls of server-side scripts since the reset (Redis Functions), or -1 where the driver runs
     * none: its statements are the whole story.
     */
    default long scriptCalls() {
        return -1;
    }

    /**
     * The server's CPU time so far in ms, as the server itself reports it, or -1 where it does
     * not: then the drain reads the CPU of the {@link #processName()} processes from /proc.
     */
    default double cpuMillis() {
        return -1;
    }

    /**
     * What the server has written so far to the run's job table, where it can tell (Postgres):
     * WAL bytes (server-wide) and the table's row versions; the drain reports the difference per job.
     */
    default Optional<Writes> writes() {
        return Optional.empty();
    }

    /**
     * Cumulative write counters: {@code walBytes} of the whole server ({@code pg_stat_wal}), and the
     * job table's inserted, updated (of which HOT: no index entry written) and deleted row versions
     * ({@code pg_stat_user_tables}).
     */
    record Writes(long walBytes, long inserted, long updated, long hotUpdated, long deleted) {
        Writes minus(Writes before) {
            return new Writes(walBytes - before.walBytes, inserted - before.inserted, updated - before.updated,
                    hotUpdated - before.hotUpdated, deleted - before.deleted);
        }
    }

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
