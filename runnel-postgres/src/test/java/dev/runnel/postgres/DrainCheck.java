package dev.runnel.postgres;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the drain tests wait for and check: a queue whose every job completed on its first attempt. */
final class DrainCheck {
    /** Polled this often: a count over tens of thousands of rows is not free on a two-core machine. */
    private static final long POLL_MILLIS = 100;

    /** Jobs are inserted in batches of this many, one statement each. */
    private static final int INSERT_BATCH = 5_000;

    private DrainCheck() {}

    /** Inserts {@code count} drain jobs into {@code queue}; returns their ids. */
    static Set<Long> insert(Runnel inserter, String queue, int count) {
        InsertOptions options = InsertOptions.builder().queue(queue).build();
        Set<Long> ids = new HashSet<>();
        for (int from = 0; from < count; from += INSERT_BATCH) {
            List<InsertRequest> batch = new ArrayList<>(INSERT_BATCH);
            for (int n = from; n < Math.min(count, from + INSERT_BATCH); n++) {
                batch.add(new InsertRequest(new DrainJob(n), options));
            }
            for (long id : InsertResult.ids(inserter.insertMany(batch))) {
                ids.add(id);
            }
        }
        assertThat(ids).hasSize(count);
        return ids;
    }

    /** A client of {@code workers} slots on {@code queue} that works drain jobs with {@code worker}, as {@code clientId}. */
    static Runnel client(Driver driver, String queue, int workers, DrainWorker worker, String clientId) {
        return Runnel.builder()
                .driver(driver)
                .queue(queue, workers)
                .worker(DrainJob.class, worker)
                .clientId(clientId)
                .build();
    }

    /** How many jobs the workers were handed between them so far. */
    static long worked(Map<String, DrainWorker> workers) {
        return workers.values().stream().mapToLong(DrainWorker::count).sum();
    }

    /** Waits until {@code expected} jobs are completed; fails with the counts by state when they are not. */
    static void awaitCompleted(Runnel reader, long expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<JobCount> counts = reader.jobCounts();
            long completed = counts.stream().filter(c -> c.state() == JobState.COMPLETED).mapToLong(JobCount::count).sum();
            if (completed >= expected) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("after " + timeout + ", " + completed + " of " + expected
                        + " jobs are completed; counts by state: " + counts);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Every job of the schema, by id, read a page at a time. */
    static Map<Long, JobRow> allJobs(Runnel reader) {
        Map<Long, JobRow> jobs = new HashMap<>();
        long after = 0;
        while (true) {
            List<JobRow> page = reader.jobList(JobQuery.all().afterId(after).limit(10_000));
            if (page.isEmpty()) {
                return jobs;
            }
            page.forEach(row -> jobs.put(row.id(), row));
            after = page.getLast().id();
        }
    }

    /**
     * Asserts that the ids the clients report, by client id, cover {@code inserted} exactly once
     * between them; returns, for each job, the client that worked it.
     */
    static Map<Long, String> assertWorkedExactlyOnce(Set<Long> inserted, Map<String, List<Long>> workedBy) {
        Map<Long, String> worker = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        workedBy.forEach((client, ids) -> {
            for (long id : ids) {
                String earlier = worker.putIfAbsent(id, client);
                if (earlier != null) {
                    duplicates.add("job " + id + " by " + earlier + " and " + client);
                }
            }
        });
        assertThat(duplicates).as("jobs worked more than once").isEmpty();
        Set<Long> missing = new HashSet<>(inserted);
        missing.removeAll(worker.keySet());
        assertThat(missing).as("jobs never worked").isEmpty();
        assertThat(worker.keySet()).as("ids worked that were never inserted").hasSameSizeAs(inserted);
        return worker;
    }

    /**
     * Asserts that the stored jobs are exactly {@code workedBy}'s, each completed on its first
     * attempt, last claimed by the client that says it worked it. A job may have been claimed
     * before without being worked: claimed ahead of a free slot, it went back to the table
     * unstarted after waiting too long (its attempt uncounted), as happens on a loaded machine.
     */
    static void assertStoredCompletedOnce(Runnel reader, Map<Long, String> workedBy) {
        Map<Long, JobRow> stored = allJobs(reader);
        assertThat(stored.keySet()).as("stored job ids").isEqualTo(workedBy.keySet());
        List<String> wrong = new ArrayList<>();
        for (JobRow row : stored.values()) {
            String by = workedBy.get(row.id());
            if (row.state() != JobState.COMPLETED || row.attempt() != 1 || row.attemptedBy().isEmpty()
                    || !row.attemptedBy().getLast().equals(by)
                    || row.finalizedAt().isEmpty() || !row.errors().isEmpty()) {
                wrong.add("job " + row.id() + ": state " + row.state() + ", attempt " + row.attempt()
                        + ", attempted by " + row.attemptedBy() + " (worked by " + by + "), errors " + row.errors());
            }
        }
        assertThat(limit(wrong)).as("jobs not completed once on their first attempt (" + wrong.size() + ")").isEmpty();
    }

    private static Collection<String> limit(List<String> lines) {
        return lines.size() <= 20 ? lines : lines.subList(0, 20);
    }
}
