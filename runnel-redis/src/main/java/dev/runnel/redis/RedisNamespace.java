package dev.runnel.redis;

import dev.runnel.driver.Migration;
import dev.runnel.driver.MigrationRecord;
import dev.runnel.driver.Times;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A namespace's one migration. Redis has no schema: the keys come into being as jobs, clients and
 * queues are written. The migration records that the namespace is Runnel's (so that the
 * migration commands and a client's start check work as on SQL), and reverting it deletes every
 * key of the namespace, in bounded batches, found through the namespace's own sets, never a scan.
 */
final class RedisNamespace {
    /** Jobs one drop call deletes: each call holds the server for a few milliseconds. */
    static final int DROP_BATCH = 2_000;
    static final Migration NAMESPACE = new Migration(1, "001_namespace",
            "-- Redis: nothing to create; records the namespace as Runnel's. The function library is loaded at"
                    + " start.\n",
            "-- Redis: deletes every key of the namespace (its jobs, queues, clients, lease and counters).\n");

    private final RedisFunctions redis;

    RedisNamespace(RedisFunctions redis) {
        this.redis = redis;
    }

    List<Migration> all() {
        return List.of(NAMESPACE);
    }

    List<MigrationRecord> applied() {
        List<?> flat = redis.call("runnel_migration_list");
        List<MigrationRecord> records = new ArrayList<>();
        for (int i = 0; i < flat.size(); i += 2) {
            String record = flat.get(i + 1).toString();
            int space = record.lastIndexOf(' ');
            records.add(new MigrationRecord(Integer.parseInt(flat.get(i).toString()), record.substring(0, space),
                    Times.fromMicros(Long.parseLong(record.substring(space + 1)))));
        }
        records.sort(Comparator.comparingInt(MigrationRecord::version));
        return records;
    }

    boolean apply(Migration migration, boolean up) {
        if (migration.version() != NAMESPACE.version()) {
            throw new IllegalArgumentException("the Redis driver has no migration " + migration.version());
        }
        if (up) {
            return redis.callLong("runnel_migration_up", Integer.toString(migration.version()),
                    migration.name() + " " + RedisEncoding.micros(Instant.now())) == 1;
        }
        if (applied().isEmpty()) {
            return false;
        }
        drop();
        return true;
    }

    /** Deletes every key of the namespace. */
    void drop() {
        while (redis.callLong("runnel_namespace_drop", Integer.toString(DROP_BATCH)) > 0) {
            // each call deletes a batch; the last one the remaining keys
        }
    }
}
