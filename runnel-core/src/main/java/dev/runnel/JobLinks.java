package dev.runnel;

import java.util.List;
import java.util.Optional;

/**
 * What ties a job to others: the workflow and task it is, the batch it belongs to, its sequence,
 * the jobs it waits for (still or once) and the jobs that wait for it.
 */
public record JobLinks(long jobId, Optional<Long> workflowId, Optional<String> task, Optional<Long> batchId,
        Optional<String> sequenceKey, List<Long> waitsFor, List<Long> waitedOnBy) {
    public JobLinks {
        waitsFor = List.copyOf(waitsFor);
        waitedOnBy = List.copyOf(waitedOnBy);
    }
}
