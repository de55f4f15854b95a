package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.RunnelException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteEncodingTest {
    @TempDir
    Path dir;

    @Test
    void aNewDatabaseIsUtf8() throws Exception {
        Path file = dir.resolve("jobs.db");
        SqliteDriver.open(file).close();
        assertThat(encodingOf(file)).isEqualTo("UTF-8");
    }

    @Test
    void aDatabaseStoredInUtf16IsRefusedAndLeftAsItWas() throws Exception {
        Path file = dir.resolve("utf16.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("PRAGMA encoding = 'UTF-16le'");
            st.execute("CREATE TABLE theirs (a TEXT)");
        }
        assertThatThrownBy(() -> SqliteDriver.open(file)).isInstanceOf(RunnelException.class)
                .hasMessageContaining("is stored in UTF-16le")
                .hasMessageContaining("UTF-8");
        assertThat(encodingOf(file)).isEqualTo("UTF-16le");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT group_concat(name) FROM sqlite_master")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("theirs");
        }
    }

    private static String encodingOf(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA encoding")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
