package dev.runnel.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Statement counts from {@code pg_stat_statements}, reset before a drain. The extension must be
 * preloaded by the server ({@code shared_preload_libraries}); without it, the reason says how to
 * enable it. The reset is server-wide: run drains against a server nobody else is loading.
 */
public final class PostgresServerStats implements ServerStats {
    static final String HOW_TO_ENABLE = "pg_stat_statements is not available: add "
            + "shared_preload_libraries = 'pg_stat_statements' to postgresql.conf (or conf.d), restart "
            + "PostgreSQL, and run again (the drain creates the extension itself)";

    private final DataSource dataSource;
    /** The schema of the run's job table, for {@link #writes()}; null for none. */
    private final String schema;

    public PostgresServerStats(DataSource dataSource) {
        this(dataSource, null);
    }

    public PostgresServerStats(DataSource dataSource, String schema) {
        this.dataSource = dataSource;
        this.schema = schema;
    }

    /**
     * The server's WAL bytes and the job table's row versions so far. Backends report their
     * counts when their transaction ends and at exit, so a reading after the workers' connections
     * closed holds all they wrote.
     */
    @Override
    public Optional<Writes> writes() {
        if (schema == null) {
            return Optional.empty();
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT (SELECT wal_bytes FROM pg_stat_wal)::bigint, coalesce(s.n_tup_ins, 0), coalesce(s.n_tup_upd, 0),"
                        + " coalesce(s.n_tup_hot_upd, 0), coalesce(s.n_tup_del, 0)"
                        + " FROM (SELECT 1) AS one LEFT JOIN pg_stat_user_tables s"
                        + " ON s.schemaname = ? AND s.relname = 'runnel_job'")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Optional.of(new Writes(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
            }
        } catch (SQLException e) {
            return Optional.empty(); // a server before 14 has no pg_stat_wal: the drain says n/a
        }
    }

    @Override
    public Optional<String> processName() {
        return Optional.of("postgres");
    }

    @Override
    public Optional<String> resetStatements() {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_settings WHERE name = "
                    + "'shared_preload_libraries' AND setting LIKE '%pg_stat_statements%'")) {
                if (!rs.next() || rs.getInt(1) == 0) {
                    return Optional.of(HOW_TO_ENABLE);
                }
            }
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of(HOW_TO_ENABLE + " (" + e.getMessage() + ")");
        }
    }

    @Override
    public long statements() {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
                        + "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                        + "AND query NOT LIKE '%pg_stat_statements%'")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    /** Their text cut to 100 characters, blanks collapsed. */
    @Override
    public Map<String, Long> topStatements(int n) {
        Map<String, Long> top = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT regexp_replace(query, '\\s+', ' ', 'g'), calls FROM pg_stat_statements"
                        + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                        + " AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC LIMIT ?")) {
            ps.setInt(1, n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String q = rs.getString(1);
                    top.put(q.length() > 100 ? q.substring(0, 100) + "..." : q, rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            // the figures stand without the breakdown
        }
        return top;
    }
}
