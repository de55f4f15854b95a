package dev.runnel.bench;

import dev.runnel.RunnelException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Reads {@link TableHealth} of the job table in one schema: sizes from {@code pg_class}, tuple
 * counts and vacuum history from {@code pg_stat_user_tables}, and an exact {@code count(*)}. Each
 * reading is three small statements; on a table of a few hundred thousand rows the count takes
 * milliseconds.
 */
public final class PostgresTableStats {
    private static final String TABLE = "runnel_job";
    /** The schema is written into the count's SQL, so it must be a plain identifier. */
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final DataSource dataSource;
    private final String schema;

    public PostgresTableStats(DataSource dataSource, String schema) {
        if (!PLAIN_IDENTIFIER.matcher(schema).matches()) {
            throw new IllegalArgumentException("not a plain lower-case schema name: " + schema);
        }
        this.dataSource = dataSource;
        this.schema = schema;
    }

    /** The schema whose job table this reads. */
    public String schema() {
        return schema;
    }

    /**
     * Whether the server runs autovacuum at all ({@code autovacuum}): without it, dead row versions
     * stay until a manual VACUUM, and the table only grows.
     */
    public boolean autovacuumOn() {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_setting('autovacuum')::boolean")) {
            rs.next();
            return rs.getBoolean(1);
        } catch (SQLException e) {
            throw new RunnelException("reading the autovacuum setting failed: " + e.getMessage(), e);
        }
    }

    public TableHealth read() {
        try (Connection c = dataSource.getConnection()) {
            Map<String, Long> indexes = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT ic.relname, pg_relation_size(ic.oid) "
                    + "FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace "
                    + "JOIN pg_index i ON i.indrelid = t.oid JOIN pg_class ic ON ic.oid = i.indexrelid "
                    + "WHERE n.nspname = ? AND t.relname = ? ORDER BY ic.relname")) {
                ps.setString(1, schema);
                ps.setString(2, TABLE);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        indexes.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
            long rows;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM " + schema + "." + TABLE)) {
                rs.next();
                rows = rs.getLong(1);
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_relation_size(s.relid), s.n_live_tup, "
                    + "s.n_dead_tup, s.last_autovacuum, s.autovacuum_count, s.n_tup_del "
                    + "FROM pg_stat_user_tables s WHERE s.schemaname = ? AND s.relname = ?")) {
                ps.setString(1, schema);
                ps.setString(2, TABLE);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new RunnelException("no table " + schema + "." + TABLE + " in pg_stat_user_tables");
                    }
                    Timestamp vacuumed = rs.getTimestamp(4);
                    return new TableHealth(rs.getLong(1), indexes, rows, rs.getLong(2), rs.getLong(3),
                            Optional.ofNullable(vacuumed).map(Timestamp::toInstant), rs.getLong(5), rs.getLong(6));
                }
            }
        } catch (SQLException e) {
            throw new RunnelException("reading the statistics of " + schema + "." + TABLE + " failed: " + e.getMessage(), e);
        }
    }
}
