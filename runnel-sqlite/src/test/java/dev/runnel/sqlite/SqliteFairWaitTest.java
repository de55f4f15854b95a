package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.JobArgs;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fair busy wait: writers of several processes that begin waiting while another connection
 * holds SQLite's write lock take it, once released, in the order they arrived, each within a
 * bound; the native wait stays selectable; a waiter that died does not hold the queue up.
 */
class SqliteFairWaitTest {
    /** Waiters in processes of their own. */
    private static final int WAITERS = 4;
    /** Time between the test's signals to the waiters to begin. */
    private static final long SIGNAL_GAP_MS = 150;
    /**
     * The order asserted: waiters that arrived (by their own clocks, just before their first try)
     * at least this far apart took the lock in that order. Closer arrivals are not told apart: a
     * waiter takes its ticket only after its first try met the lock, which on a loaded machine may
     * be some milliseconds after it arrived.
     */
    private static final long ORDER_BOUND_MS = 50;
    /**
     * After the lock is released, every waiter has written within this. Each write takes about a
     * millisecond and each hand-over at most one 1 ms poll; the rest is room for a shared machine.
     */
    private static final long ACQUIRE_BOUND_MS = 1_000;

    record Arrival(int waiter) implements JobArgs {
        @Override
        public String kind() {
            return "arrival";
        }
    }

    /**
     * The child: opens the file with the default (fair) wait, says {@code ready}, and on {@code go}
     * inserts one job, then prints {@code done ARRIVED_MS DONE_MS JOB_ID}: the job's id, handed out
     * by SQLite as it writes, is the order in which the waiters got the lock.
     */
    public static void main(String[] args) throws Exception {
        int waiter = Integer.parseInt(args[1]);
        try (Runnel runnel = Runnel.builder().driver(SqliteDriver.open(Path.of(args[0]))).build()) {
            runnel.insert(new Arrival(-1)); // loads the insert path's classes before the clock starts
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            ChildJvm.say("ready");
            if (!"go".equals(in.readLine())) {
                return;
            }
            long arrived = System.currentTimeMillis();
            long id = runnel.insert(new Arrival(waiter)).id();
            ChildJvm.say("done " + arrived + " " + System.currentTimeMillis() + " " + id);
        }
    }

    @Test
    void waitersOfSeveralProcessesGetTheLockInOrderOfArrivalOnceItIsReleased(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("jobs.db");
        try (SqliteDriver driver = SqliteDriver.open(file)) {
            new Migrator(driver).up();
        }
        List<ChildJvm> children = new ArrayList<>();
        try (Connection holder = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            for (int i = 0; i < WAITERS; i++) {
                children.add(new ChildJvm(SqliteFairWaitTest.class, file.toString(), String.valueOf(i)));
            }
            for (ChildJvm child : children) {
                child.expect("ready", 60_000);
            }
            long released;
            try (Statement st = holder.createStatement()) {
                st.execute("BEGIN IMMEDIATE");
                for (ChildJvm child : children) {
                    child.send("go");
                    Thread.sleep(SIGNAL_GAP_MS);
                }
                Thread.sleep(200); // the last one too has met the lock
                released = System.currentTimeMillis();
                st.execute("COMMIT");
            }
            long[][] waiters = new long[WAITERS][]; // arrived, wrote, job id
            for (int i = 0; i < WAITERS; i++) {
                String[] done = children.get(i).expect("done", 30_000).split(" ");
                waiters[i] = new long[] {Long.parseLong(done[1]), Long.parseLong(done[2]), Long.parseLong(done[3])};
            }
            String seen = describe(waiters, released);
            System.out.println("fair wait: " + seen);
            for (int i = 0; i < WAITERS; i++) {
                assertThat(waiters[i][0]).as("waiter %d arrived while the lock was held: %s", i, seen).isLessThan(released);
                assertThat(waiters[i][1] - released).as("waiter %d wrote within %d ms of the release: %s", i,
                        ACQUIRE_BOUND_MS, seen).isBetween(0L, ACQUIRE_BOUND_MS);
                for (int j = 0; j < WAITERS; j++) {
                    if (waiters[j][0] - waiters[i][0] >= ORDER_BOUND_MS) {
                        assertThat(waiters[j][2]).as("waiter %d, arrived %d ms after waiter %d, wrote after it: %s",
                                j, waiters[j][0] - waiters[i][0], i, seen).isGreaterThan(waiters[i][2]);
                    }
                }
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    private static String describe(long[][] waiters, long released) {
        StringBuilder b = new StringBuilder("waiter: arrived, wrote (ms from release), job id =");
        for (int i = 0; i < waiters.length; i++) {
            b.append(String.format(" %d: %+d, %+d, #%d;", i, waiters[i][0] - released, waiters[i][1] - released, waiters[i][2]));
        }
        return b.toString();
    }

    @Test
    void aWaiterThatDiedIsPassedOverAndTheNextWriterGetsThrough(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("jobs.db");
        try (SqliteDriver driver = SqliteDriver.open(file)) {
            new Migrator(driver).up();
            try (Runnel runnel = Runnel.builder().driver(driver).build()) {
                runnel.insert(new Arrival(-1)); // class loading, before the clock starts
                try (SqliteWaitQueue dead = SqliteWaitQueue.open(file)) {
                    dead.join(); // a waiter whose process died: its ticket stays, its heartbeat stops
                }
                long start = System.nanoTime();
                runnel.insert(new Arrival(0));
                long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(tookMs).as("passed the dead ticket over after about %d ms", SqliteWaitQueue.STALE_MILLIS)
                    .isBetween(SqliteWaitQueue.STALE_MILLIS, SqliteWaitQueue.STALE_MILLIS + 2_000);
            }
        }
    }

    @Test
    void bothWaitsGiveUpAfterTheBusyTimeoutWithAClearError(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("jobs.db");
        try (SqliteDriver driver = SqliteDriver.open(file)) {
            new Migrator(driver).up();
        }
        for (SqliteBusyWait wait : SqliteBusyWait.values()) {
            try (Connection holder = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement st = holder.createStatement();
                    Runnel runnel = Runnel.builder().driver(SqliteDriver.open(file, Duration.ofMillis(300), wait)).build()) {
                st.execute("BEGIN IMMEDIATE");
                long start = System.nanoTime();
                assertThatThrownBy(() -> runnel.insert(new Arrival(0))).as(wait.name())
                        .isInstanceOf(RunnelException.class).hasMessageContaining("locked");
                assertThat((System.nanoTime() - start) / 1_000_000).as(wait.name()).isBetween(250L, 5_000L);
                st.execute("ROLLBACK");
                assertThat(runnel.insert(new Arrival(1)).id()).as(wait.name()).isPositive();
            }
        }
    }

    @Test
    void theUrlSelectsTheWaitAndItsTimeout(@TempDir Path dir) {
        assertThat(SqliteUrl.parse("sqlite://a.db")).isEqualTo(
                new SqliteUrl("a.db", SqliteBusyWait.FAIR, Duration.ofMillis(SqliteDriver.DEFAULT_BUSY_TIMEOUT_MS)));
        assertThat(SqliteUrl.parse("sqlite:///x/a.db?busy=native&busy_timeout=5s"))
                .isEqualTo(new SqliteUrl("/x/a.db", SqliteBusyWait.NATIVE, Duration.ofSeconds(5)));
        assertThat(SqliteUrl.parse("sqlite://a.db?busy_timeout=250ms&busy=fair").busyTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(SqliteUrl.parse("sqlite://a.db?busy_timeout=2m").busyTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(SqliteUrl.parse("sqlite://:memory:?busy=native").memory()).isTrue();
        for (String bad : List.of("sqlite://a.db?busy=polite", "sqlite://a.db?busy_timeout=soon", "sqlite://a.db?busy_timeout=1500", "sqlite://a.db?busy_timeout=-1s",
                "sqlite://a.db?busy_timeout=2h", "sqlite://a.db?cache=big", "sqlite://?busy=fair")) {
            assertThatThrownBy(() -> SqliteDriver.open(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        try (SqliteDriver opened = SqliteDriver.open("sqlite://" + dir.resolve("u.db") + "?busy=native&busy_timeout=1s")) {
            assertThat(opened.name()).isEqualTo("sqlite");
        }
        assertThat(dir.resolve("u.db-runnel-wait")).as("the native wait needs no queue file").doesNotExist();
    }
}
