package dev.runnel.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * Terminates and counts the server backends of one application name, over a plain connection of
 * its own. A test gives its clients a name no one else uses, so that builds running beside it keep
 * their connections.
 */
final class Backends {
    /**
     * A listener is told apart from a pool connection by its last statement: it issues LISTEN and
     * then only waits, while a pool connection never listens.
     */
    private static final String TERMINATE = """
            SELECT pid, query LIKE 'LISTEN %' AS listening, pg_terminate_backend(pid) AS terminated
            FROM pg_stat_activity
            WHERE application_name = ? AND pid <> pg_backend_pid()""";
    private static final String LISTENERS = """
            SELECT pid FROM pg_stat_activity
            WHERE application_name = ? AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()""";

    /** The backends one {@link #terminate} ended, by role. */
    record Terminated(Set<Integer> pool, Set<Integer> listeners) {
        Set<Integer> all() {
            Set<Integer> all = new HashSet<>(pool);
            all.addAll(listeners);
            return all;
        }
    }

    private Backends() {}

    /** Terminates every backend named {@code applicationName}. */
    static Terminated terminate(String applicationName) throws SQLException {
        Set<Integer> pool = new HashSet<>();
        Set<Integer> listeners = new HashSet<>();
        try (Connection c = PostgresTestSchema.admin(); PreparedStatement ps = c.prepareStatement(TERMINATE)) {
            ps.setString(1, applicationName);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getBoolean("terminated")) {
                        (rs.getBoolean("listening") ? listeners : pool).add(rs.getInt("pid"));
                    }
                }
            }
        }
        return new Terminated(pool, listeners);
    }

    /** The listening backends named {@code applicationName} that are not among {@code gone}. */
    static Set<Integer> listenersExcept(String applicationName, Set<Integer> gone) throws SQLException {
        Set<Integer> pids = new HashSet<>();
        try (Connection c = PostgresTestSchema.admin(); PreparedStatement ps = c.prepareStatement(LISTENERS)) {
            ps.setString(1, applicationName);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pids.add(rs.getInt(1));
                }
            }
        }
        pids.removeAll(gone);
        return pids;
    }

    /** How many jobs of {@code schema} are running now. */
    static long runningJobs(String schema) throws SQLException {
        // The schema is a test schema's generated name (t_ and hex), safe to put into the SQL.
        try (Connection c = PostgresTestSchema.admin();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM " + schema + ".runnel_job WHERE state = 'running'");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
