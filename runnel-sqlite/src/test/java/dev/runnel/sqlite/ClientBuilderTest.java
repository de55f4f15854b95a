package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.JobState;
import dev.runnel.QueueExecutor;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.RunnelException;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a new user meets first: the builder's checks, and a client usable from the moment it is built. */
class ClientBuilderTest {
    record Ping(String target) implements JobArgs {
        @Override
        public String kind() {
            return "ping";
        }
    }

    @TempDir
    Path dir;

    private SqliteDriver driver() {
        return SqliteDriver.open(dir.resolve("jobs.db"));
    }

    @Test
    void workersWithoutAQueueAreRefusedWithWhatToDo() {
        try (SqliteDriver d = driver()) {
            assertThatThrownBy(() -> Runnel.builder().driver(d).worker(Ping.class, job -> {}).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no queue is configured").hasMessageContaining("queue(\"default\"");
        }
    }

    @Test
    void anEmbeddedQueueWithoutAnExecutorGetsTheLowPriorityPoolWhoseSizeIsBounded() {
        try (SqliteDriver d = driver()) {
            assertThatThrownBy(() -> Runnel.builder().driver(d).embedded(true).queue("big", 5_000)
                    .worker(Ping.class, job -> {}).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("queue big runs on platform threads at nice " + QueueExecutor.EMBEDDED_NICE)
                    .hasMessageContaining("QueueExecutor.virtualThreads()");
            // Its own executor wins over the embedded default.
            Runnel.builder().driver(d).embedded(true).queue("big", 5_000, QueueExecutor.virtualThreads())
                    .worker(Ping.class, job -> {}).build();
        }
    }

    @Test
    void clusterSettingsOutOfRangeAreRefusedByName() {
        RunnelBuilder b = Runnel.builder();
        assertThatThrownBy(() -> b.heartbeatInterval(Duration.ofMillis(10))).hasMessageContaining("heartbeatInterval");
        assertThatThrownBy(() -> b.heartbeatTimeout(Duration.ofDays(2))).hasMessageContaining("heartbeatTimeout");
        assertThatThrownBy(() -> b.leaderLease(Duration.ofMillis(500))).hasMessageContaining("leaderLease");
        assertThatThrownBy(() -> b.rescueThreshold(Duration.ZERO)).hasMessageContaining("rescueThreshold");
        assertThatThrownBy(() -> b.cleanerInterval(Duration.ofHours(2))).hasMessageContaining("cleanerInterval");
        assertThatThrownBy(() -> b.retention(JobState.COMPLETED, Duration.ofSeconds(-1)))
                .hasMessageContaining("retention of completed jobs");
        assertThatThrownBy(() -> b.retention(JobState.RUNNING, Duration.ofHours(1))).hasMessageContaining("running");
        assertThatThrownBy(() -> b.retainForever(JobState.AVAILABLE)).hasMessageContaining("available");
        try (SqliteDriver d = driver()) {
            assertThatThrownBy(() -> Runnel.builder().driver(d).heartbeatInterval(Duration.ofSeconds(5))
                    .heartbeatTimeout(Duration.ofSeconds(6)).build())
                    .hasMessageContaining("heartbeatTimeout").hasMessageContaining("twice");
            assertThatThrownBy(() -> Runnel.builder().driver(d).jobTimeout(Duration.ofHours(2)).build())
                    .hasMessageContaining("rescueThreshold").hasMessageContaining("jobTimeout");
        }
    }

    @Test
    void namesWithControlCharactersAreRefusedBeforeAnythingIsWritten() {
        try (SqliteDriver d = driver(); Runnel runnel = Runnel.builder().driver(d).autoMigrate(true).build()) {
            assertThatThrownBy(() -> runnel.insert(new Ping("x"), InsertOptions.builder().queue("mail\u0000").build()))
                    .hasMessageContaining("queue").hasMessageContaining("U+0000");
            assertThatThrownBy(() -> Runnel.builder().queue("a\nb", 1)).hasMessageContaining("control characters");
            assertThatThrownBy(() -> runnel.insert(new JobArgs() {
                @Override
                public String kind() {
                    return "bell\u0007";
                }
            })).hasMessageContaining("kind").hasMessageContaining("U+0007");
            assertThatThrownBy(() -> Runnel.builder().clientId("tab\tbed")).hasMessageContaining("clientId");
            assertThat(runnel.jobCounts()).isEmpty();
        }
    }

    @Test
    void aBuiltClientKeepsItsSettingsWhateverTheBuilderDoesAfterwards() {
        EventRecorder events = new EventRecorder();
        AtomicInteger late = new AtomicInteger();
        RunnelBuilder builder = Runnel.builder().driver(driver()).autoMigrate(true).queue("default", 2)
                .listener(events).worker(Ping.class, job -> {});
        try (Runnel runnel = builder.build()) {
            builder.listener(event -> late.incrementAndGet()).queue("other", 5).clientId("changed");
            runnel.start();
            long id = runnel.insert(new Ping("a")).id();
            assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
            assertThat(runnel.id()).isNotEqualTo("changed");
            assertThat(late).hasValue(0);
            assertThat(runnel.clients()).singleElement().satisfies(c -> assertThat(c.metadata()).doesNotContain("other"));
        }
    }

    @Test
    void withAutoMigrateAClientCanInsertBeforeItStarts() {
        try (Runnel runnel = Runnel.builder().driver(driver()).autoMigrate(true).build()) {
            long id = runnel.insert(new Ping("early")).id();
            assertThat(runnel.jobGet(id).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
        }
    }

    @Test
    void withoutMigrationsAnInsertSaysWhatToDo() {
        try (Runnel runnel = Runnel.builder().driver(driver()).build()) {
            assertThatThrownBy(() -> runnel.insert(new Ping("too early")))
                    .isInstanceOf(RunnelException.class)
                    .hasMessageContaining("runnel migrate up").hasMessageContaining("autoMigrate");
        }
    }

    @Test
    void aStoppedClientsRunningJobsAreRescuedAtOnceByTheOthers() {
        // A client stopped with a job that ignores cancellation leaves it running; its stop marks it
        // expired, so the leader rescues the job without waiting for the heartbeat timeout.
        try (SqliteDriver shared = driver()) {
            Runnel leader = Runnel.builder().driver(new dev.runnel.testkit.ForwardingDriver(shared) {
                @Override
                public void close() {}
            }).autoMigrate(true).clientId("leader").heartbeatInterval(Duration.ofMillis(100))
                    .heartbeatTimeout(Duration.ofSeconds(1)).leaderLease(Duration.ofSeconds(1))
                    .schedulerInterval(Duration.ofMillis(50)).queue("other", 1).worker(Ping.class, job -> {}).build();
            leader.start();
            Await.until("the leader to lead", leader::isLeader);
            Runnel stubborn = Runnel.builder().driver(new dev.runnel.testkit.ForwardingDriver(shared) {
                @Override
                public void close() {}
            }).clientId("stubborn").stopTimeout(Duration.ofMillis(100)).queue("default", 1)
                    .worker(Ping.class, job -> {
                        while (true) {
                            try {
                                Thread.sleep(60_000);
                            } catch (InterruptedException ignored) {
                                // ignores cancellation
                            }
                        }
                    }).build();
            stubborn.start();
            long id = stubborn.insert(new Ping("stuck")).id();
            Await.until("the job to run", () -> stubborn.jobGet(id).orElseThrow().state() == JobState.RUNNING);
            stubborn.stop(Duration.ofMillis(50));
            Await.until("the job to be rescued", Duration.ofSeconds(10),
                    () -> leader.jobGet(id).orElseThrow().state() != JobState.RUNNING);
            assertThat(leader.jobGet(id).orElseThrow().lastError().orElseThrow().message())
                    .contains("client stubborn stopped heartbeating");
            leader.stop(Duration.ofSeconds(1));
        }
    }
}
