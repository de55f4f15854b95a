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

    @Test
    void aSqliteLibraryOlderThanTheOneWhoseStatementsRunnelUsesIsRefusedWithTheVersionToGet() {
        assertThatThrownBy(() -> SqliteConnections.requireVersion("3.37.2")).isInstanceOf(RunnelException.class)
                .hasMessage("the SQLite library on the classpath is 3.37.2; Runnel needs 3.38.0 or later"
                        + " (org.xerial:sqlite-jdbc 3.38.0 or later)");
        assertThatThrownBy(() -> SqliteConnections.requireVersion("2.99.9")).isInstanceOf(RunnelException.class);
        SqliteConnections.requireVersion("3.38.0");
        SqliteConnections.requireVersion("3.50.3");
        SqliteConnections.requireVersion("4.0.0");
    }

    @Test
    void aBatchIsReadWithJsonbEachWhereTheLibraryHasItAndWithJsonEachBefore() {
        assertThat(SqliteConnections.jsonEachFor("3.50.3")).isEqualTo("json_each");
        assertThat(SqliteConnections.jsonEachFor("3.51.0")).isEqualTo("jsonb_each");
        assertThat(SqliteConnections.jsonEachFor("3.54.1")).isEqualTo("jsonb_each");
        assertThat(SqliteConnections.jsonEachFor("4.0.0")).isEqualTo("jsonb_each");
    }

    @Test
    void theDriverOpensOnTheBundledLibraryAndReadsItsBatchesWithWhatThatLibraryHas() throws Exception {
        String version;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:"); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT sqlite_version()")) {
            rs.next();
            version = rs.getString(1);
        }
        try (SqliteConnections connections = new SqliteConnections("jdbc:sqlite:" + dir.resolve("v.db"), "v.db",
                java.util.Optional.of(dir.resolve("v.db")), 1, java.time.Duration.ofSeconds(5), SqliteBusyWait.FAIR)) {
            assertThat(connections.batchJsonEach()).isEqualTo(SqliteConnections.jsonEachFor(version));
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
