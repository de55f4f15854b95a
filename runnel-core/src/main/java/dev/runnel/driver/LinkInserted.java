package dev.runnel.driver;

import dev.runnel.InsertResult;
import java.util.List;

/**
 * What a {@link LinkInsertParams} insert wrote: the workflow and batch the jobs joined (0 when
 * none), each job's result in order, and the queues that got available jobs. Internal SPI.
 */
public record LinkInserted(long workflowId, long batchId, List<InsertResult> jobs, List<String> availableQueues) {
    public LinkInserted {
        jobs = List.copyOf(jobs);
        availableQueues = List.copyOf(availableQueues);
    }
}
