package dev.runnel;

import java.util.List;

/**
 * What an insert did: the job's id and whether it was a duplicate of a unique job
 * ({@link UniqueOptions}) that already existed, in which case nothing was written and the id
 * is the existing job's.
 */
public record InsertResult(long id, boolean duplicate) {
    /** The ids of {@code results}, in order. */
    public static long[] ids(List<InsertResult> results) {
        long[] ids = new long[results.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = results.get(i).id();
        }
        return ids;
    }
}
