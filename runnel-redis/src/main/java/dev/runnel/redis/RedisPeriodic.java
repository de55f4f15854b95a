package dev.runnel.redis;

import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.RunnelException;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicRemoveParams;
import dev.runnel.driver.PeriodicUpsertParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic jobs, each operation one call of the library: a tick's job is inserted by the call that
 * moves its periodic job on, fenced by the definition's hash, the tick read and the lease, so each
 * tick is enqueued once across clients.
 */
final class RedisPeriodic {
    private static final Logger log = LoggerFactory.getLogger(RedisPeriodic.class);

    private final RedisFunctions redis;

    RedisPeriodic(RedisFunctions redis) {
        this.redis = redis;
    }

    boolean upsert(PeriodicUpsertParams p) {
        return redis.callLong("runnel_periodic_upsert", p.name(), p.kind(), p.args(), p.queue(),
                Integer.toString(p.priority()), Integer.toString(p.maxAttempts()), JobJson.encodeStrings(p.tags()),
                p.metadata(), p.schedule(), p.zone(), p.catchUp().dbName(), p.runOnStart() ? "1" : "0", p.hash(),
                p.declared() ? p.hash() : "", RedisEncoding.micros(p.now()), RedisEncoding.sortable(p.now()),
                json(p.name()), json(p.now().toString())) == 1;
    }

    List<PeriodicRow> list() {
        List<PeriodicRow> rows = new ArrayList<>();
        for (Object o : redis.call("runnel_periodic_list")) {
            List<?> v = (List<?>) o;
            try {
                rows.add(new PeriodicRow(v.get(0).toString(), string(v, 1), string(v, 2), string(v, 3),
                        Integer.parseInt(string(v, 4)), Integer.parseInt(string(v, 5)),
                        JobJson.decodeStrings(string(v, 6)), string(v, 7), string(v, 8), string(v, 9),
                        PeriodicJob.CatchUp.fromDb(string(v, 10)), "1".equals(string(v, 11)), string(v, 12),
                        v.get(13) != null, Optional.ofNullable(RedisEncoding.instant(v.get(14))),
                        Optional.ofNullable(RedisEncoding.instant(v.get(15))),
                        RedisRows.requiredInstant(v.get(16), "fired_through"),
                        RedisRows.requiredInstant(v.get(17), "created_at"),
                        RedisRows.requiredInstant(v.get(18), "updated_at")));
            } catch (RuntimeException e) {
                log.warn("periodic job {} in Redis is malformed and left out: {}", v.get(0), e.getMessage());
            }
        }
        return rows;
    }

    boolean setPaused(PeriodicPauseParams p) {
        return redis.callLong("runnel_periodic_set_paused", p.name(), p.paused() ? "1" : "0",
                RedisEncoding.micros(p.now())) == 1;
    }

    boolean remove(PeriodicRemoveParams p) {
        return redis.callLong("runnel_periodic_remove", p.name(), RedisEncoding.micros(p.now())) == 1;
    }

    boolean enqueue(PeriodicEnqueueParams p) {
        return redis.callLong("runnel_periodic_enqueue", p.lease().leaderId(), RedisEncoding.micros(p.lease().now()),
                RedisEncoding.sortable(p.lease().now()), p.name(), p.hash(), RedisEncoding.micros(p.firedThrough()),
                RedisEncoding.micros(p.tick()), p.enqueue() ? "1" : "0", json(p.name()), json(p.tick().toString()))
                == 1;
    }

    private static String json(String text) {
        return JobJson.NODES.textNode(text).toString();
    }

    private static String string(List<?> v, int i) {
        Object value = v.get(i);
        if (value == null) {
            throw new RunnelException("its hash has no field " + FIELDS[i - 1]);
        }
        return value.toString();
    }

    /** The library's PERIODIC fields, in its order, for messages. */
    private static final String[] FIELDS = {"kind", "args", "queue", "priority", "max_attempts", "tags", "metadata",
            "schedule", "zone", "catch_up", "run_on_start", "hash"};
}
