package dev.runnel.driver;

import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import java.time.Instant;
import java.util.StringJoiner;

/**
 * A job an at-most-once claim removed, written back because its attempt did not simply complete.
 * It is stored again under its own id, as {@code job} describes it, but in {@code state} (cancelled
 * or discarded), finalised at {@code finalizedAt}, with {@code error} (a JSON object, or null)
 * appended to its errors. Internal SPI.
 */
public record JobReinsertParams(JobRow job, JobState state, Instant finalizedAt, String error) {
    public JobReinsertParams {
        if (!state.isFinal()) {
            throw new IllegalArgumentException("a job written back after an at-most-once claim must be final, not " + state);
        }
    }

    /** The errors to store, as one JSON array of objects: the job's own, then {@code error} if any. */
    public String errorsJson() {
        StringJoiner all = new StringJoiner(",", "[", "]");
        for (JobError e : job.errors()) {
            all.add(JobJson.encodeError(e));
        }
        if (error != null) {
            all.add(error);
        }
        return all.toString();
    }
}
