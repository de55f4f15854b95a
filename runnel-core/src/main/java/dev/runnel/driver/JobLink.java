package dev.runnel.driver;

import java.util.List;

/**
 * What ties one job being inserted to others: its workflow task name and the tasks it runs after,
 * its sequence key, and whether it joins the insert's batch. Internal SPI.
 *
 * @param task the job's task name in the insert's workflow, or null when it is in none
 * @param after the names of the tasks it waits for (new in this insert, or already in the workflow)
 * @param policy what a dependency ending cancelled, discarded or deleted does to it:
 *     {@link Links#CANCEL} or {@link Links#RUN}
 * @param sequenceKey the sequence it runs in, in insert order, or null
 * @param sequencePolicy what its predecessor in the sequence being discarded does to it:
 *     {@link Links#HOLD} (it waits until that job is retried and completes, or is deleted or
 *     cancelled) or {@link Links#RUN}
 * @param inBatch whether it joins the insert's batch
 */
public record JobLink(String task, List<String> after, String policy, String sequenceKey, String sequencePolicy,
        boolean inBatch) {
    public JobLink {
        after = List.copyOf(after);
    }

    /** A job of the insert's batch and nothing else. */
    public static final JobLink BATCH = new JobLink(null, List.of(), Links.CANCEL, null, Links.HOLD, true);

    /** A plain job of a mixed insert: tied to nothing. */
    public static final JobLink NONE = new JobLink(null, List.of(), Links.CANCEL, null, Links.HOLD, false);

    /** Whether this ties the job to anything. */
    public boolean any() {
        return task != null || sequenceKey != null || inBatch;
    }
}
