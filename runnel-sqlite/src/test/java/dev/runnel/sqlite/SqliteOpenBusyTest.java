package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.RunnelException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a file that another process holds locked as the driver sets up its connections (as when
 * several processes start on one file at once, or one recovers the WAL after a crash): the driver
 * waits, up to its busy timeout, instead of failing at once.
 */
class SqliteOpenBusyTest {
    @TempDir
    Path dir;

    /** A connection of another program that holds the file's exclusive lock until closed. */
    private static Connection lockExclusively(Path file) throws Exception {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS theirs (a TEXT)");
            st.execute("BEGIN EXCLUSIVE");
            st.execute("INSERT INTO theirs VALUES ('x')");
        }
        return c;
    }

    @Test
    void aFileLockedWhileTheDriverOpensIsWaitedForAndThenOpened() throws Exception {
        Path file = dir.resolve("jobs.db");
        Connection blocker = lockExclusively(file);
        CompletableFuture<SqliteDriver> opening = CompletableFuture.supplyAsync(
                () -> SqliteDriver.open(file, Duration.ofSeconds(20)));
        Thread.sleep(300);
        assertThat(opening).isNotDone();
        blocker.close();
        try (SqliteDriver driver = opening.get(20, TimeUnit.SECONDS)) {
            assertThat(driver.migrationApplied()).isEmpty();
        }
    }

    @Test
    void aFileLockedForLongerThanTheBusyTimeoutIsRefusedWithTheReason() throws Exception {
        Path file = dir.resolve("jobs.db");
        try (Connection blocker = lockExclusively(file)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> SqliteDriver.open(file, Duration.ofMillis(300)))
                    .isInstanceOf(RunnelException.class)
                    .hasMessageContaining("cannot open SQLite database")
                    .hasMessageContaining("locked");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        }
    }
}
