package dev.runnel.driver;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/** Reads the ids a statement returns, as the operations that report what they changed do. Internal SPI. */
public final class JdbcIds {
    private JdbcIds() {}

    /**
     * Runs {@code ps} and returns the first column of every row; {@code expected} sizes the array
     * (a batch's size: an outcome write returns at most its batch), which grows if need be.
     */
    public static long[] read(PreparedStatement ps, int expected) throws SQLException {
        return read(ps.executeQuery(), expected);
    }

    /** The first column of every row of {@code result}, which this closes; {@code expected} as above. */
    public static long[] read(ResultSet result, int expected) throws SQLException {
        long[] ids = new long[Math.max(expected, 1)];
        int n = 0;
        try (ResultSet rs = result) {
            while (rs.next()) {
                if (n == ids.length) {
                    ids = Arrays.copyOf(ids, n * 2);
                }
                ids[n++] = rs.getLong(1);
            }
        }
        return n == ids.length ? ids : Arrays.copyOf(ids, n);
    }
}
