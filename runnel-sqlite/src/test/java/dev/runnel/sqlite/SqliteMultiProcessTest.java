package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several processes, each with its own Runnel client, working the jobs of one SQLite file: every
 * job is worked exactly once, and the table ends with all of them completed. Their writes meet
 * SQLite's write lock held by the others, and wait for it with the fair busy wait.
 */
class SqliteMultiProcessTest {
    private static final int PROCESSES = 3;
    private static final int JOBS = 3_000;

    record Work(int n) implements JobArgs {
        @Override
        public String kind() {
            return "work";
        }
    }

    /**
     * The child: a client working queue {@code default} that notes each job's id; on {@code stop}
     * it stops gracefully, writes the ids to its file (one a line) and says {@code done}.
     */
    public static void main(String[] args) throws Exception {
        ConcurrentLinkedQueue<Long> worked = new ConcurrentLinkedQueue<>();
        Runnel runnel = Runnel.builder()
                .driver(SqliteDriver.open(Path.of(args[0])))
                .queue("default", 8)
                .fetchPollInterval(Duration.ofMillis(50)) // other processes' inserts are found by polling
                .worker(Work.class, job -> worked.add(job.id()))
                .build();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        ChildJvm.say("ready");
        runnel.start();
        String line;
        while ((line = in.readLine()) != null && !line.equals("stop")) {
            // working until told to stop
        }
        runnel.close();
        Files.write(Path.of(args[1]), worked.stream().map(String::valueOf).toList());
        ChildJvm.say("done " + worked.size());
    }

    @Test
    void processesWorkingOneFileWorkEveryJobExactlyOnce(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("jobs.db");
        List<ChildJvm> children = new ArrayList<>();
        try (Runnel inserter = Runnel.builder().driver(SqliteDriver.open(file)).autoMigrate(true).build()) {
            insert(inserter, 0, JOBS / 2);
            for (int i = 0; i < PROCESSES; i++) {
                children.add(new ChildJvm(SqliteMultiProcessTest.class, file.toString(), dir.resolve("ids-" + i).toString()));
            }
            for (ChildJvm child : children) {
                child.expect("ready", 60_000);
            }
            // The rest while they work: this process's inserts contend for the write lock too.
            for (int from = JOBS / 2; from < JOBS; from += 100) {
                insert(inserter, from, 100);
                Thread.sleep(5);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            long completed = 0;
            while (System.nanoTime() - deadline < 0 && (completed = count(inserter, JobState.COMPLETED)) < JOBS) {
                Thread.sleep(100);
            }
            for (ChildJvm child : children) {
                child.send("stop");
            }
            long workedByChildren = 0;
            for (ChildJvm child : children) {
                workedByChildren += Long.parseLong(child.expect("done", 60_000).split(" ")[1]);
                assertThat(child.awaitExit(30_000)).isTrue();
            }
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < PROCESSES; i++) {
                Files.readAllLines(dir.resolve("ids-" + i)).forEach(l -> ids.add(Long.parseLong(l)));
            }
            Set<Long> distinct = new HashSet<>(ids);
            Map<JobState, Long> byState = inserter.jobCounts().stream()
                    .collect(Collectors.groupingBy(JobCount::state, Collectors.summingLong(JobCount::count)));
            assertThat(completed).as("completed in time; by state %s", byState).isEqualTo(JOBS);
            assertThat(ids).as("worked %d times for %d distinct jobs", ids.size(), distinct.size()).hasSize(JOBS);
            assertThat(distinct).as("every job worked").hasSize(JOBS);
            assertThat(workedByChildren).isEqualTo(JOBS);
            assertThat(byState).as("the table ends with every job completed").isEqualTo(Map.of(JobState.COMPLETED, (long) JOBS));
            long busiest = 0;
            for (int i = 0; i < PROCESSES; i++) {
                busiest = Math.max(busiest, Files.readAllLines(dir.resolve("ids-" + i)).size());
            }
            System.out.println("multi-process: " + PROCESSES + " processes worked " + JOBS + " jobs, the busiest " + busiest);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    private static void insert(Runnel runnel, int from, int count) {
        List<InsertRequest> batch = new ArrayList<>();
        for (int n = from; n < from + count; n++) {
            batch.add(InsertRequest.of(new Work(n)));
        }
        runnel.insertMany(batch);
    }

    private static long count(Runnel runnel, JobState state) {
        return runnel.jobCounts().stream().filter(c -> c.state() == state).mapToLong(JobCount::count).sum();
    }
}
