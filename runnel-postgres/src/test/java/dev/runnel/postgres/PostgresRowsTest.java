package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.postgresql.PGResultSetMetaData;

class PostgresRowsTest {
    private static final String VALUES = "SELECT x FROM (VALUES (1, timestamptz '1999-12-31 23:59:59.999999+00'),"
            + " (2, '2000-01-01 00:00:00+00'), (3, '1969-07-20 20:17:40.000001+00'), (4, '2030-06-15 12:34:56.789012+02'),"
            + " (5, 'infinity'), (6, '-infinity'), (7, NULL)) AS v(n, x) ORDER BY n";

    /** The instants {@link PostgresRows#instant} reads, the transfer format pgjdbc used, per row. */
    private static List<Instant> read(int prepareThreshold, int expectedFormat) throws SQLException {
        PostgresUrl url = PostgresUrl.parse(PostgresTestSchema.URL);
        Properties props = url.connectionProperties("runnel-test", 5);
        props.setProperty("prepareThreshold", Integer.toString(prepareThreshold));
        try (Connection c = DriverManager.getConnection(url.jdbcUrl(), props);
                PreparedStatement ps = c.prepareStatement(VALUES);
                ResultSet rs = ps.executeQuery()) {
            assertThat(rs.getMetaData().unwrap(PGResultSetMetaData.class).getFormat(1)).isEqualTo(expectedFormat);
            List<Instant> out = new ArrayList<>();
            while (rs.next()) {
                out.add(PostgresRows.instant(rs, 1));
            }
            return out;
        }
    }

    @Test
    void aTimestampReadsAsTheSameInstantInBinaryAndInTextTransferBeforeAndAfter2000AndAtInfinity() throws SQLException {
        // prepareThreshold -1 makes pgjdbc use binary transfer from the first execution; 0 never.
        List<Instant> binary = read(-1, 1);
        List<Instant> text = read(0, 0);
        assertThat(binary).isEqualTo(text);
        assertThat(binary).containsExactly(
                Instant.parse("1999-12-31T23:59:59.999999Z"),
                Instant.parse("2000-01-01T00:00:00Z"),
                Instant.parse("1969-07-20T20:17:40.000001Z"),
                Instant.parse("2030-06-15T10:34:56.789012Z"),
                OffsetDateTime.MAX.toInstant(),
                OffsetDateTime.MIN.toInstant(),
                null);
    }
}
