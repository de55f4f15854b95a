package dev.runnel;

import dev.runnel.internal.AuditLog;
import java.util.List;

/**
 * The cluster's audit log: the changes operators made, newest first. The dashboard
 * ({@code runnel-web}) records each change made through its pages and API here; an application's
 * own admin tools may record theirs alike. Entries are kept, in the table {@code runnel_audit},
 * until deleted there. Handed out by {@link Runnel#audit()}.
 */
public final class Audit {
    /** The most entries {@link #list} returns at once: {@value}. */
    public static final int MAX_LIST = 1_000;

    private final AuditLog log;

    Audit(AuditLog log) {
        this.log = log;
    }

    /**
     * Records that {@code actor} did {@code action} to {@code target}, changing {@code count}
     * jobs, queues or periodic jobs (see {@link AuditRow} for the fields' forms), stamped now by the
     * client's clock; returns the entry's id. A target longer than 2,000 characters is cut, its
     * end marked with an ellipsis: a filter or a list of ids is kept for reading, not replaying.
     *
     * @throws IllegalArgumentException when {@code actor}, {@code action} or {@code target} is null
     */
    public long record(String actor, String action, String target, long count) {
        return log.record(actor, action, target, count);
    }

    /**
     * Up to {@code limit} entries, newest first, of those older than entry {@code beforeId}: 0
     * for the newest, the last id of a page for the page after it.
     *
     * @throws IllegalArgumentException when {@code limit} is not between 1 and {@value #MAX_LIST}
     */
    public List<AuditRow> list(long beforeId, int limit) {
        if (limit < 1 || limit > MAX_LIST) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIST + ", was " + limit);
        }
        return log.list(beforeId, limit);
    }
}
