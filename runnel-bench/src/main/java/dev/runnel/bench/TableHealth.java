package dev.runnel.bench;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The job table's state at one moment, as Postgres reports it: sizes on disk, the exact row count,
 * and the statistics collector's tuple counts and vacuum history. The statistics lag the table by
 * up to a few seconds (each backend reports them about once a second); the sizes and the row count
 * do not.
 *
 * @param heapBytes the table's main fork ({@code pg_relation_size})
 * @param indexBytes each index's size by name, in name order
 * @param rows the rows a {@code count(*)} sees
 * @param liveTuples {@code n_live_tup}
 * @param deadTuples {@code n_dead_tup}: row versions vacuum has yet to remove
 * @param lastAutovacuum when autovacuum last finished with the table, if ever
 * @param autovacuums how many times it has
 * @param deletedRows {@code n_tup_del}: rows deleted since the table was created, which in a churn
 *     run (at least once, so claims delete nothing) are the cleaner's
 */
public record TableHealth(long heapBytes, Map<String, Long> indexBytes, long rows, long liveTuples, long deadTuples,
        Optional<Instant> lastAutovacuum, long autovacuums, long deletedRows) {
    public TableHealth {
        indexBytes = Collections.unmodifiableMap(new LinkedHashMap<>(indexBytes));
    }

    /** All indexes together. */
    public long totalIndexBytes() {
        return indexBytes.values().stream().mapToLong(Long::longValue).sum();
    }
}
