package dev.runnel.driver;

import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import java.util.ArrayList;
import java.util.List;

/**
 * How a driver reads one page of a {@link JobQuery}: which way it walks the ids, between which two
 * (inclusive; the id range and the cursor merged), and whether it must reverse what it read. A
 * previous page is read walking away from its cursor, so that the {@code limit} nearest jobs are
 * the ones read, and then reversed into the query's order. Internal SPI.
 *
 * @param descending walk the ids downwards
 * @param fromId the lowest id to read
 * @param toId the highest id to read
 * @param reverse reverse the rows read to give them in the query's order
 */
public record JobListScan(boolean descending, long fromId, long toId, boolean reverse) {

    /** The scan that reads {@code query}'s page. */
    public static JobListScan of(JobQuery query) {
        boolean newestFirst = query.order() == JobQuery.Order.NEWEST_FIRST;
        long from = query.minId();
        long to = query.maxId();
        if (query.afterId() == Long.MAX_VALUE && !newestFirst || query.beforeId() == Long.MAX_VALUE && newestFirst) {
            return new JobListScan(newestFirst, 1, 0, false); // nothing lies beyond the last possible id
        }
        if (query.afterId() > 0) {
            // After a cursor: onwards in the query's order.
            if (newestFirst) {
                to = Math.min(to, query.afterId() - 1);
            } else {
                from = Math.max(from, above(query.afterId()));
            }
            return new JobListScan(newestFirst, from, to, false);
        }
        if (query.beforeId() > 0) {
            // Before a cursor: walk back from it, then turn the rows round.
            if (newestFirst) {
                from = Math.max(from, above(query.beforeId()));
            } else {
                to = Math.min(to, query.beforeId() - 1);
            }
            return new JobListScan(!newestFirst, from, to, true);
        }
        return new JobListScan(newestFirst, from, to, false);
    }

    /** Whether no id can match: the driver need not ask the database. */
    public boolean empty() {
        return fromId > toId;
    }

    /** {@code rows}, read by this scan, in the query's order. */
    public List<JobRow> inQueryOrder(List<JobRow> rows) {
        if (!reverse) {
            return rows;
        }
        List<JobRow> reversed = new ArrayList<>(rows);
        java.util.Collections.reverse(reversed);
        return reversed;
    }

    private static long above(long id) {
        return id + 1; // never the last possible id: of() returns an empty scan first
    }
}
