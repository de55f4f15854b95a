package dev.runnel.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.KeyLimit;
import dev.runnel.RateLimit;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.QueueGlobalLimitParams;
import dev.runnel.driver.QueueKeyLimitParams;
import dev.runnel.driver.QueueKeyStragglersParams;
import dev.runnel.driver.QueueLimits;
import dev.runnel.driver.QueueRateLimitParams;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Queue limits: setting them, and reading them back from a queue's hash. The limited claim itself
 * is one call of the library ({@code runnel_claim_limited}, made by {@link RedisJobs#claim}),
 * which keeps to them as the SQL drivers' limited claim does.
 */
final class RedisLimits {
    /**
     * The most waiting jobs one call gives their keys when a per-key limit is set: a script blocks
     * the server while it runs, so a backlog of a million goes in calls of this many.
     */
    static final int KEY_BATCH = 1_000;

    private final RedisFunctions redis;

    RedisLimits(RedisFunctions redis) {
        this.redis = redis;
    }

    boolean setGlobal(QueueGlobalLimitParams p) {
        return redis.callLong("runnel_queue_set_global_limit", p.queue(), RedisEncoding.micros(p.now()),
                p.limit().isPresent() ? Integer.toString(p.limit().getAsInt()) : "") == 1;
    }

    boolean setRate(QueueRateLimitParams p) {
        return redis.callLong("runnel_queue_set_rate_limit", p.queue(), RedisEncoding.micros(p.now()),
                p.limit().map(r -> Integer.toString(r.jobs())).orElse(""),
                p.limit().map(r -> Long.toString(r.periodMicros())).orElse("")) == 1;
    }

    /**
     * Sets the per-key limit, then gives the queue's available jobs their keys in calls of
     * {@link #KEY_BATCH}; until they have them, the keyed claim does not see them. Should this
     * client stop half-way, the leader's {@link #stragglers} finishes.
     */
    boolean setKey(QueueKeyLimitParams p) {
        Optional<KeyLimit> limit = p.limit();
        Optional<RateLimit> rate = limit.flatMap(KeyLimit::rate);
        boolean found = redis.callLong("runnel_queue_set_key_limit", p.queue(), RedisEncoding.micros(p.now()),
                limit.map(KeyLimit::sourceName).orElse(""), limit.map(KeyLimit::field).orElse(""),
                limit.map(l -> Integer.toString(l.limit())).orElse(""), QueueLimits.weights(limit),
                rate.map(r -> Integer.toString(r.jobs())).orElse(""),
                rate.map(r -> Long.toString(r.periodMicros())).orElse("")) == 1;
        boolean done = !found || limit.isEmpty();
        while (!done) {
            done = RedisRows.number(redis.call("runnel_queue_key_waiting", p.queue(), Integer.toString(KEY_BATCH))
                    .get(1)) == 1;
        }
        return found;
    }

    /** Finishes giving their keys to the waiting jobs of queues whose per-key limit was set after {@code since}. */
    int stragglers(QueueKeyStragglersParams p) {
        int keyed = 0;
        while (true) {
            List<Object> reply = redis.call("runnel_queue_key_stragglers", RedisEncoding.micros(p.since()),
                    Integer.toString(KEY_BATCH));
            keyed += (int) RedisRows.number(reply.get(0));
            if (RedisRows.number(reply.get(1)) == 1) {
                return keyed;
            }
        }
    }

    /** The global limit in field {@code i} of a queue's reply, if any. */
    static OptionalInt global(List<?> v, int i) {
        return v.get(i) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(v.get(i).toString()));
    }

    /** The rate limit in fields {@code i} (jobs) and {@code i + 1} (period in microseconds), if any. */
    static Optional<RateLimit> rate(List<?> v, int i) {
        if (v.get(i) == null || v.get(i + 1) == null) {
            return Optional.empty();
        }
        return Optional.of(new RateLimit(Integer.parseInt(v.get(i).toString()),
                Duration.ofNanos(Long.parseLong(v.get(i + 1).toString()) * 1_000)));
    }

    /**
     * The per-key limit in fields {@code i} (source), +1 (field), +2 (limit), +3 (weights, a JSON
     * object), +4 and +5 (its rate), if any.
     */
    static Optional<KeyLimit> key(List<?> v, int i) {
        if (v.get(i) == null) {
            return Optional.empty();
        }
        Map<String, Integer> weights = new LinkedHashMap<>();
        JsonNode node = JobJson.readTree(v.get(i + 3) == null ? "{}" : v.get(i + 3).toString());
        node.properties().forEach(e -> weights.put(e.getKey(), e.getValue().asInt()));
        return Optional.of(new KeyLimit(v.get(i).toString().equals("args") ? KeyLimit.Source.ARGS
                : KeyLimit.Source.METADATA, v.get(i + 1).toString(), Integer.parseInt(v.get(i + 2).toString()),
                weights, rate(v, i + 4)));
    }
}
