package dev.runnel.redis;

import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobListScan;
import dev.runnel.driver.Times;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reading jobs: by id, listings, and counts. A listing walks the id-ordered set of its one state,
 * or of every job, in windows of {@link #SCAN} ids per call, so that no script holds the server
 * for long however few jobs match; counts are kept exactly by every write, so none is estimated.
 */
final class RedisReads {
    /** Ids one listing call reads: a few milliseconds of the server's time. */
    static final int SCAN = 2_000;

    private final RedisFunctions redis;

    RedisReads(RedisFunctions redis) {
        this.redis = redis;
    }

    Optional<JobRow> get(long id) {
        List<JobRow> rows = getMany(new long[] {id});
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }

    List<JobRow> getMany(long[] ids) {
        if (ids.length == 0) {
            return List.of();
        }
        String[] args = new String[ids.length];
        for (int i = 0; i < ids.length; i++) {
            args[i] = Long.toString(ids[i]);
        }
        return RedisRows.decodeAll(redis.call("runnel_get_many", args));
    }

    List<JobRow> list(JobQuery query) {
        JobListScan scan = JobListScan.of(query);
        if (scan.empty()) {
            return List.of();
        }
        String states = JobJson.encodeStrings(query.states().stream().map(JobState::dbName).sorted().toList());
        String queues = JobJson.encodeStrings(List.copyOf(query.queues()));
        String kinds = JobJson.encodeStrings(List.copyOf(query.kinds()));
        String tags = JobJson.encodeStrings(List.copyOf(query.tags()));
        String args = query.args().orElse("");
        String createdFrom = query.createdFrom().map(t -> Long.toString(Times.toMicros(t))).orElse("");
        String createdBefore = query.createdBefore().map(t -> Long.toString(Times.toMicros(t))).orElse("");
        long from = scan.fromId();
        long to = scan.toId();
        List<JobRow> rows = new ArrayList<>();
        while (rows.size() < query.limit() && from <= to) {
            List<?> reply = redis.call("runnel_list", Long.toString(from), Long.toString(to),
                    scan.descending() ? "1" : "0", Integer.toString(query.limit() - rows.size()), Integer.toString(SCAN),
                    states, queues, kinds, tags, args, createdFrom, createdBefore);
            rows.addAll(RedisRows.decodeAll(reply.get(0)));
            String last = reply.get(1).toString();
            if (RedisRows.number(reply.get(2)) == 1 || last.isEmpty()) {
                break;
            }
            long lastId = Long.parseLong(last);
            if (scan.descending()) {
                to = lastId - 1;
            } else {
                from = lastId + 1;
            }
        }
        return scan.inQueryOrder(rows);
    }

    List<JobCount> count() {
        List<?> flat = redis.call("runnel_counts");
        List<JobCount> counts = new ArrayList<>();
        for (int i = 0; i < flat.size(); i += 2) {
            String field = flat.get(i).toString();
            long n = RedisRows.number(flat.get(i + 1));
            if (n > 0) {
                int colon = field.indexOf(':');
                counts.add(new JobCount(field.substring(colon + 1), JobState.fromDb(field.substring(0, colon)), n));
            }
        }
        counts.sort(Comparator.comparing(JobCount::queue).thenComparing(JobCount::state));
        return counts;
    }
}
