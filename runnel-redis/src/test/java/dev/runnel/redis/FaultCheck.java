package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** What the fault tests insert, wait for and check on a namespace. */
final class FaultCheck {
    private static final long POLL_MILLIS = 100;

    private FaultCheck() {}

    /** Inserts fault jobs numbered {@code from} to {@code from + count - 1} into {@code queue}; returns their ids. */
    static List<Long> insert(Runnel inserter, String queue, int from, int count) {
        InsertOptions options = InsertOptions.builder().queue(queue).build();
        List<InsertRequest> batch = new ArrayList<>(count);
        for (int n = from; n < from + count; n++) {
            batch.add(new InsertRequest(new FaultJob(n), options));
        }
        List<Long> ids = new ArrayList<>();
        for (long id : InsertResult.ids(inserter.insertMany(batch))) {
            ids.add(id);
        }
        assertThat(ids).hasSize(count);
        return ids;
    }

    /** Every job of the namespace, by id. */
    static Map<Long, JobRow> allJobs(Runnel reader) {
        Map<Long, JobRow> jobs = new TreeMap<>();
        long after = 0;
        while (true) {
            List<JobRow> page = reader.jobList(JobQuery.all().afterId(after).limit(5_000));
            if (page.isEmpty()) {
                return jobs;
            }
            page.forEach(row -> jobs.put(row.id(), row));
            after = page.getLast().id();
        }
    }

    /** Waits until every job of the namespace, at least {@code expected}, is completed; fails with the counts. */
    static void awaitAllCompleted(Runnel reader, long expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<JobCount> counts = reader.jobCounts();
            long completed = 0;
            long other = 0;
            for (JobCount c : counts) {
                if (c.state() == JobState.COMPLETED) {
                    completed += c.count();
                } else {
                    other += c.count();
                }
            }
            if (completed >= expected && other == 0) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("after " + timeout + ", " + completed + " of at least " + expected
                        + " jobs are completed; counts by state: " + counts);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** For each job worked more than once across {@code workedBy}'s clients, the clients that worked it. */
    static Map<Long, List<String>> workedTwice(Map<String, List<Long>> workedBy) {
        Map<Long, List<String>> by = new HashMap<>();
        workedBy.forEach((client, ids) -> ids.forEach(id -> by.computeIfAbsent(id, k -> new ArrayList<>()).add(client)));
        by.values().removeIf(clients -> clients.size() < 2);
        return by;
    }

    /** The ids worked by any of {@code workedBy}'s clients. */
    static Set<Long> worked(Map<String, List<Long>> workedBy) {
        Set<Long> ids = new LinkedHashSet<>();
        workedBy.values().forEach(ids::addAll);
        return ids;
    }
}
