package dev.runnel.driver;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;

/**
 * Jobs tied to others (workflow tasks, a batch's jobs, sequences' jobs), inserted all or none,
 * with {@code links.get(i)} saying how {@code jobs.get(i)} is tied. Internal SPI.
 *
 * @param connection the caller's connection, to insert inside its transaction, or null
 * @param workflowName the name of a workflow to create for the jobs with a task name, or null
 * @param workflowId the existing workflow the tasks join when {@code workflowName} is null, or 0
 * @param batch a batch to create for the jobs {@link JobLink#inBatch}, or null
 * @param batchId the existing batch they join when {@code batch} is null, or 0
 * @param now the insert's time (each job's created time)
 */
public record LinkInsertParams(Connection connection, String workflowName, long workflowId, NewBatch batch,
        long batchId, List<JobInsertParams> jobs, List<JobLink> links, Instant now) {
    public LinkInsertParams {
        jobs = List.copyOf(jobs);
        links = List.copyOf(links);
        if (jobs.size() != links.size()) {
            throw new IllegalArgumentException(jobs.size() + " jobs but " + links.size() + " links");
        }
    }

    /**
     * A batch to create.
     *
     * @param name a name for people, or null
     * @param callbacks a JSON object of the callbacks ({@code success}, {@code complete},
     *     {@code discard}), each a job as {@link BatchCallbacks#encode} writes it
     */
    public record NewBatch(String name, String callbacks) {}
}
