package dev.runnel.redis;

import dev.runnel.ClientRow;
import dev.runnel.LeaderRow;
import dev.runnel.QueueRow;
import dev.runnel.driver.ClientDeleteParams;
import dev.runnel.driver.ClientHeartbeatParams;
import dev.runnel.driver.ClientRescuedParams;
import dev.runnel.driver.LeaderElectParams;
import dev.runnel.driver.QueuePauseParams;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Clients, the leader's lease and queues. */
final class RedisCluster {
    private final RedisFunctions redis;

    RedisCluster(RedisFunctions redis) {
        this.redis = redis;
    }

    void heartbeat(ClientHeartbeatParams p) {
        redis.callLong("runnel_client_heartbeat", p.id(), RedisEncoding.micros(p.now()), RedisEncoding.micros(p.expiresAt()),
                p.metadata());
    }

    void stop(String id, Instant now) {
        redis.callLong("runnel_client_stop", id, RedisEncoding.micros(now));
    }

    List<ClientRow> list() {
        List<ClientRow> clients = new ArrayList<>();
        for (Object o : redis.call("runnel_client_list")) {
            List<?> v = (List<?>) o;
            if (v.get(1) == null || v.get(3) == null) {
                continue; // expired and deleted between the two reads of the script: not there
            }
            clients.add(new ClientRow(v.get(0).toString(), RedisEncoding.instant(v.get(1)),
                    RedisEncoding.instant(v.get(2)), RedisEncoding.instant(v.get(3)),
                    Optional.ofNullable(RedisEncoding.instant(v.get(4))), v.get(5) == null ? "{}" : v.get(5).toString()));
        }
        clients.sort(Comparator.comparing(ClientRow::startedAt).thenComparing(ClientRow::id));
        return clients;
    }

    List<String> listDead(Instant now) {
        List<String> ids = new ArrayList<>();
        for (Object o : redis.call("runnel_client_list_dead", RedisEncoding.micros(now))) {
            ids.add(o.toString());
        }
        return ids;
    }

    void markRescued(ClientRescuedParams p) {
        List<String> args = new ArrayList<>(2 + p.clientIds().size());
        args.add(p.lease().leaderId());
        args.add(RedisEncoding.micros(p.lease().now()));
        args.addAll(p.clientIds());
        redis.callLong("runnel_client_mark_rescued", args.toArray(String[]::new));
    }

    int deleteExpired(ClientDeleteParams p) {
        return (int) redis.callLong("runnel_client_delete_expired", p.lease().leaderId(),
                RedisEncoding.micros(p.lease().now()), RedisEncoding.micros(p.expiredBefore()));
    }

    boolean attemptElect(LeaderElectParams p) {
        return redis.callLong("runnel_leader_elect", p.leaderId(), RedisEncoding.micros(p.now()),
                RedisEncoding.micros(p.expiresAt())) == 1;
    }

    void resign(String leaderId) {
        redis.callLong("runnel_leader_resign", leaderId);
    }

    Optional<LeaderRow> leader() {
        List<?> v = redis.call("runnel_leader_get");
        if (v.get(0) == null) {
            return Optional.empty();
        }
        return Optional.of(new LeaderRow(v.get(0).toString(), RedisEncoding.instant(v.get(1)),
                RedisEncoding.instant(v.get(2))));
    }

    void registerQueues(List<String> queues, Instant now) {
        if (queues.isEmpty()) {
            return;
        }
        List<String> args = new ArrayList<>(1 + queues.size());
        args.add(RedisEncoding.micros(now));
        args.addAll(queues);
        redis.callLong("runnel_queue_register", args.toArray(String[]::new));
    }

    List<QueueRow> queues() {
        List<QueueRow> queues = new ArrayList<>();
        for (Object o : redis.call("runnel_queue_list")) {
            List<?> v = (List<?>) o;
            if (v.get(1) == null) {
                continue;
            }
            queues.add(new QueueRow(v.get(0).toString(), RedisEncoding.instant(v.get(1)),
                    RedisEncoding.instant(v.get(2)), Optional.ofNullable(RedisEncoding.instant(v.get(3))),
                    v.get(4) == null ? "{}" : v.get(4).toString(), RedisLimits.global(v, 5), RedisLimits.rate(v, 6),
                    RedisLimits.key(v, 8)));
        }
        return queues;
    }

    List<String> setPaused(QueuePauseParams p) {
        List<String> names = new ArrayList<>();
        for (Object o : redis.call("runnel_queue_set_paused", p.paused() ? "1" : "0",
                RedisEncoding.micros(p.now()), p.queue().orElse(""))) {
            names.add(o.toString());
        }
        return names;
    }
}
