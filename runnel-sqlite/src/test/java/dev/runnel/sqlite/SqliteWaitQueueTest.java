package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ticket queue on its own, three processes' views of one file (each its own mapping): tickets
 * are served in order, and a waiter that gave up is passed over at once, without the stale wait.
 */
class SqliteWaitQueueTest {
    @Test
    void ticketsAreServedInOrderAndOneThatLeftIsPassedOverAtOnce(@TempDir Path dir) {
        Path db = dir.resolve("jobs.db");
        try (SqliteWaitQueue a = SqliteWaitQueue.open(db); SqliteWaitQueue b = SqliteWaitQueue.open(db);
                SqliteWaitQueue c = SqliteWaitQueue.open(db)) {
            assertThat(a.busy()).isFalse();
            long ta = a.join();
            long tb = b.join();
            long tc = c.join();
            assertThat(c.busy()).isTrue();
            assertThat(a.turn(ta)).isTrue();
            assertThat(b.turn(tb)).isFalse();
            assertThat(c.turn(tc)).isFalse();

            b.leave(tb); // b gives up (its busy timeout) while a is still served
            a.leave(ta);
            long start = System.nanoTime();
            assertThat(c.turn(tc)).as("passes b over on this poll").isFalse();
            assertThat(c.turn(tc)).as("then it is c's turn").isTrue();
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(SqliteWaitQueue.STALE_MILLIS);

            c.leave(tc);
            assertThat(a.busy()).as("empty again").isFalse();
        }
        assertThat(SqliteWaitQueue.fileOf(db)).exists().hasFileName("jobs.db-runnel-wait");
    }
}
