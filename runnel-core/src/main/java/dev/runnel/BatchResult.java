package dev.runnel;

import java.util.List;

/** A batch, or the jobs added to one, as inserted: the batch's id and each job's result in order. */
public record BatchResult(long id, List<InsertResult> jobs) {
    public BatchResult {
        jobs = List.copyOf(jobs);
    }
}
