package dev.runnel.redis;

import dev.runnel.driver.JobCancelParams;
import java.util.List;
import java.util.Optional;

/** Job administration by id: cancel, retry, delete, and the holder of a unique key. */
final class RedisAdmin {
    private final RedisFunctions redis;

    RedisAdmin(RedisFunctions redis) {
        this.redis = redis;
    }

    long[] cancelMany(JobCancelParams p) {
        String[] args = new String[3 + p.ids().length];
        args[0] = RedisEncoding.micros(p.now());
        args[1] = p.now().toString();
        args[2] = p.reason();
        fill(args, 3, p.ids());
        return RedisJobs.ids(redis.call("runnel_cancel_many", args));
    }

    long[] cancelRequested(long[] ids) {
        if (ids.length == 0) {
            return ids;
        }
        String[] args = new String[ids.length];
        fill(args, 0, ids);
        return RedisJobs.ids(redis.call("runnel_cancel_requested", args));
    }

    long[] retryMany(long[] ids, java.time.Instant now) {
        String[] args = new String[2 + ids.length];
        args[0] = RedisEncoding.micros(now);
        args[1] = RedisEncoding.sortable(now);
        fill(args, 2, ids);
        List<?> reply = redis.call("runnel_retry_many", args);
        return RedisJobs.ids(reply.get(0));
    }

    Optional<Long> uniqueHolder(long id) {
        List<?> reply = redis.call("runnel_unique_holder", Long.toString(id));
        return reply.isEmpty() ? Optional.empty() : Optional.of(RedisRows.number(reply.getFirst()));
    }

    long[] deleteMany(long[] ids) {
        String[] args = new String[ids.length];
        fill(args, 0, ids);
        return RedisJobs.ids(redis.call("runnel_delete_many", args));
    }

    private static void fill(String[] args, int from, long[] ids) {
        for (int i = 0; i < ids.length; i++) {
            args[from + i] = Long.toString(ids[i]);
        }
    }
}
