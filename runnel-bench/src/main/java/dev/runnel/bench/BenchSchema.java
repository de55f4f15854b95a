package dev.runnel.bench;

import dev.runnel.RunnelException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Postgres schemas that the benchmark and scenario commands make and drop. Each one they make
 * carries a marker (a comment on the schema), and they drop a schema only when it carries it: a
 * schema the user named that holds anything else, {@code public} above all, is refused before
 * anything is written.
 */
public final class BenchSchema {
    /** The comment that marks a schema as made by a Runnel benchmark, and so safe for it to drop. */
    static final String MARKER = "made by a runnel benchmark; it drops this schema when it ends";
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private BenchSchema() {}

    /**
     * Checks that {@code name} could be a benchmark's own schema: a plain lower-case identifier,
     * not {@code public}, {@code information_schema} or a {@code pg_} schema. Throws
     * {@link IllegalArgumentException} saying why not.
     */
    public static String checkName(String name) {
        if (name == null || !PLAIN_IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("schema must be a plain lower-case identifier, was '" + name + "'");
        }
        if (name.equals("public") || name.equals("information_schema") || name.startsWith("pg_")) {
            throw new IllegalArgumentException("schema " + name + " is not a benchmark's to drop: name a schema of its"
                    + " own, such as querybench");
        }
        return name;
    }

    /**
     * Whether {@code name} exists, and if it does, whether a benchmark made it. Empty when it does
     * not exist.
     */
    static Optional<Boolean> marked(Connection c, String name) {
        try (PreparedStatement ps = c.prepareStatement(
                        "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(MARKER.equals(rs.getString(1))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new RunnelException("reading schema " + name + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Refuses (with {@link IllegalArgumentException}) a schema that exists and was not made by a
     * benchmark, so that nothing of the user's is written to or dropped.
     */
    static void checkOwn(Connection c, String name, String command) {
        if (marked(c, checkName(name)).map(m -> !m).orElse(false)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "schema %s exists and was not made by %s:"
                    + " name another schema, or drop it yourself", name, command));
        }
    }

    /** Marks {@code name}, which the caller has just made, as a benchmark's own. */
    static void mark(Connection c, String name) {
        execute(c, "COMMENT ON SCHEMA " + checkName(name) + " IS '" + MARKER + "'");
    }

    /** Drops {@code name} with everything in it, if it exists and a benchmark made it; otherwise leaves it. */
    static void dropIfOwn(Connection c, String name) {
        if (marked(c, checkName(name)).orElse(false)) {
            execute(c, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }
    }

    private static void execute(Connection c, String statement) {
        try (Statement st = c.createStatement()) {
            st.execute(statement); // the schema in it is a checked plain identifier
        } catch (SQLException e) {
            throw new RunnelException("'" + statement + "' failed: " + e.getMessage(), e);
        }
    }
}
