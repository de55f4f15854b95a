package dev.runnel.driver;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One statement of a driver's SQL file, its {@code :name} parameters turned into JDBC's {@code ?}
 * and each name resolved once, at load, to the positions it stands at. A setter binds a value to
 * every position of its name: a name used several times in the SQL is bound once from Java. Binding
 * costs what {@link PreparedStatement}'s own setters cost, plus reading one small int array.
 * Internal SPI.
 */
public final class Sql {
    private final String name;
    private final String text;
    /** By {@link SqlFile.Param#ordinal()}: the 1-based JDBC positions of the parameter, or null when this statement has none. */
    private final int[][] positions;

    Sql(String name, String text, int[][] positions) {
        this.name = name;
        this.text = text;
        this.positions = positions;
    }

    /** The statement's name in its file. */
    public String name() {
        return name;
    }

    /** The SQL to prepare, with {@code ?} for each parameter. */
    public String text() {
        return text;
    }

    /** The JDBC positions of {@code param}, in order. */
    public int[] positions(SqlFile.Param param) {
        int[] at = param.ordinal() < positions.length ? positions[param.ordinal()] : null;
        if (at == null) {
            throw new IllegalArgumentException(name + " has no parameter :" + SqlFile.sqlName(param));
        }
        return at;
    }

    /**
     * This statement sent after {@code first}, which binds no parameter, as one: one round trip and,
     * on an autocommit connection, one transaction (pgjdbc ends the two with one Sync), so that what
     * {@code first} sets for its transaction ({@code set_config(name, value, true)}) holds when this
     * statement is planned. This statement's result comes second.
     *
     * @throws IllegalArgumentException when {@code first} binds a parameter
     */
    public Sql after(Sql first) {
        for (int[] at : first.positions) {
            if (at != null) {
                throw new IllegalArgumentException(first.name + " binds parameters, so " + name + " cannot follow it");
            }
        }
        return new Sql(name, first.text + ";\n" + text, positions);
    }

    Sql withText(String replaced) {
        return new Sql(name, replaced, positions);
    }

    public void setString(PreparedStatement ps, SqlFile.Param param, String value) throws SQLException {
        for (int i : positions(param)) {
            ps.setString(i, value);
        }
    }

    public void setInt(PreparedStatement ps, SqlFile.Param param, int value) throws SQLException {
        for (int i : positions(param)) {
            ps.setInt(i, value);
        }
    }

    public void setLong(PreparedStatement ps, SqlFile.Param param, long value) throws SQLException {
        for (int i : positions(param)) {
            ps.setLong(i, value);
        }
    }

    public void setBoolean(PreparedStatement ps, SqlFile.Param param, boolean value) throws SQLException {
        for (int i : positions(param)) {
            ps.setBoolean(i, value);
        }
    }

    public void setDouble(PreparedStatement ps, SqlFile.Param param, double value) throws SQLException {
        for (int i : positions(param)) {
            ps.setDouble(i, value);
        }
    }

    public void setBytes(PreparedStatement ps, SqlFile.Param param, byte[] value) throws SQLException {
        for (int i : positions(param)) {
            ps.setBytes(i, value);
        }
    }

    public void setObject(PreparedStatement ps, SqlFile.Param param, Object value) throws SQLException {
        for (int i : positions(param)) {
            ps.setObject(i, value);
        }
    }

    public void setObject(PreparedStatement ps, SqlFile.Param param, Object value, int sqlType) throws SQLException {
        for (int i : positions(param)) {
            ps.setObject(i, value, sqlType);
        }
    }

    public void setArray(PreparedStatement ps, SqlFile.Param param, Array value) throws SQLException {
        for (int i : positions(param)) {
            ps.setArray(i, value);
        }
    }

    /** Binds SQL NULL of {@code sqlType} ({@link java.sql.Types}). */
    public void setNull(PreparedStatement ps, SqlFile.Param param, int sqlType) throws SQLException {
        for (int i : positions(param)) {
            ps.setNull(i, sqlType);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
