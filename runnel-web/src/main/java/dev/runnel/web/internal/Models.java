package dev.runnel.web.internal;

import dev.runnel.BatchRow;
import dev.runnel.ClientRow;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The values the templates render, one record per page or part of one. */
public final class Models {
    private Models() {}

    /** A state tab of the jobs page. */
    public record Tab(String label, String href, boolean active, String count, String cssClass) {}

    /**
     * The jobs page: its filter's values, tabs, rows, its own link ({@code here}, the filter's first
     * page), the links to confirm a bulk change by its filter (by action) and to the pages either side.
     */
    public record JobsView(List<JobRow> rows, String state, String queue, String kind, String tag, String id,
            String args, List<Tab> tabs, String partialHref, String here, Map<String, String> confirmHrefs,
            Optional<String> newer, Optional<String> older, boolean firstPage, List<String> queues,
            boolean stoppedEarly) {}

    /**
     * The confirmation of a bulk change by filter: the filter's keys and values, the count it will
     * change, and whether it has no filter ({@code every} job).
     */
    public record ConfirmView(String action, Map<String, String> filter, String count, String back,
            boolean every) {}

    /** A queue and its counts by state. */
    public record QueueView(QueueRow row, Map<JobState, Long> counts) {}

    /** A client, whether it is alive or leads, its host and how many jobs it runs now. */
    public record ClientView(ClientRow row, boolean alive, boolean leader, String host, long running) {}

    /** A periodic job and its next run. */
    public record PeriodicView(PeriodicRow row, Optional<Instant> next) {}

    /** A page of workflows, newest first, and the link to the older ones when there may be more. */
    public record WorkflowsView(List<WorkflowRow> rows, Optional<String> older, boolean firstPage) {}

    /**
     * A workflow: its row, its tasks (at most {@link HtmlPages#MAX_TASKS_SHOWN} of them, {@code hidden}
     * more), and its graph when it is small enough to draw.
     */
    public record WorkflowView(WorkflowRow row, List<WorkflowTaskRow> tasks, int hidden, Optional<WorkflowGraph> graph) {}

    /** A page of batches, newest first, and the link to the older ones when there may be more. */
    public record BatchesView(List<BatchRow> rows, Optional<String> older, boolean firstPage) {}

    /** A batch and the callback jobs inserted so far. */
    public record BatchView(BatchRow row, List<Callback> callbacks) {}

    /**
     * A batch's callback job: which it is ({@code success}, {@code complete}, {@code discard}), when
     * it was inserted, its id, and its state while the job exists.
     */
    public record Callback(String which, String when, long jobId, Optional<JobState> state) {}

    /**
     * What ties a job to others, for its page: its workflow (id, name) and task, its batch, its
     * sequence, and the jobs it waits for and that wait for it (at most {@link HtmlPages#MAX_LINKS_SHOWN}
     * of each, with how many more).
     */
    public record LinksView(Optional<Long> workflowId, Optional<String> workflowName, Optional<String> task,
            Optional<Long> batchId, Optional<String> batchName, Optional<String> sequence, List<LinkedJob> waitsFor,
            int moreWaitsFor, List<LinkedJob> waitedOnBy, int moreWaitedOnBy) {}

    /** A job another one is tied to: its id, a name for people (its task or its kind), and its state while it exists. */
    public record LinkedJob(long id, String label, Optional<JobState> state) {}
}
