package dev.runnel.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.Batch;
import dev.runnel.BatchResult;
import dev.runnel.BatchRow;
import dev.runnel.DependencyPolicy;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobLinks;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Workflow;
import dev.runnel.WorkflowResult;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTask;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.driver.BatchCallbacks;
import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCancelParams;
import dev.runnel.driver.JobLink;
import dev.runnel.driver.JobRetryManyParams;
import dev.runnel.driver.LinkInsertParams;
import dev.runnel.driver.LinkInserted;
import dev.runnel.driver.LinkListParams;
import dev.runnel.driver.Links;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What {@link dev.runnel.Workflows} and {@link dev.runnel.Batches} do with the driver: insert
 * linked jobs through the client's {@link Inserter}, read workflows and batches, and cancel or
 * retry a workflow's tasks.
 */
public final class LinkAdmin {
    /** The most workflows or batches one listing returns. */
    public static final int MAX_LIST = 1_000;

    private final Driver driver;
    private final Inserter inserter;
    private final Clock clock;
    private final Runnable checkCancels;
    private final Consumer<String> wake;

    public LinkAdmin(Driver driver, Inserter inserter, Clock clock, Runnable checkCancels, Consumer<String> wake) {
        this.driver = driver;
        this.inserter = inserter;
        this.clock = clock;
        this.checkCancels = checkCancels;
        this.wake = wake;
    }

    // ---- workflows ----

    public WorkflowResult insertWorkflow(Connection transaction, Workflow workflow) {
        return insertTasks(transaction, workflow.name(), 0, workflow.tasks());
    }

    /** Adds tasks, checked already (names unique, no cycle among them), to workflow {@code workflowId}. */
    public WorkflowResult addTasks(Connection transaction, long workflowId, List<WorkflowTask> tasks) {
        return insertTasks(transaction, null, workflowId, tasks);
    }

    private WorkflowResult insertTasks(Connection transaction, String name, long workflowId, List<WorkflowTask> tasks) {
        List<InsertRequest> requests = new ArrayList<>(tasks.size());
        List<JobLink> links = new ArrayList<>(tasks.size());
        for (WorkflowTask task : tasks) {
            requests.add(new InsertRequest(task.args(), task.options()));
            InsertOptions effective = task.options().orElse(task.args().insertOptions());
            links.add(Inserter.link(task.name(), task.after(),
                    task.onDependencyFailure() == DependencyPolicy.RUN ? Links.RUN : Links.CANCEL, effective, false));
        }
        LinkInserted inserted = inserter.insertLinked(transaction, requests, links, name, workflowId, null, 0);
        Map<String, Long> ids = new LinkedHashMap<>();
        for (int i = 0; i < tasks.size(); i++) {
            ids.put(tasks.get(i).name(), inserted.jobs().get(i).id());
        }
        return new WorkflowResult(inserted.workflowId(), ids);
    }

    public Optional<WorkflowRow> workflow(long id) {
        return driver.supportsLinks() ? driver.workflowGet(id) : Optional.empty();
    }

    public List<WorkflowRow> workflows(int limit, long beforeId) {
        return driver.supportsLinks() ? driver.workflowList(new LinkListParams(checkLimit(limit), beforeId)) : List.of();
    }

    public List<WorkflowTaskRow> tasks(long id) {
        return driver.supportsLinks() ? driver.workflowTasks(id) : List.of();
    }

    /** Cancels every task of workflow {@code id} that is not final; returns how many were cancelled or marked. */
    public int cancelWorkflow(long id) {
        List<WorkflowTaskRow> tasks = existingTasks(id);
        long[] open = tasks.stream().filter(t -> t.state().isPresent() && !t.state().get().isFinal())
                .mapToLong(WorkflowTaskRow::jobId).toArray();
        if (open.length == 0) {
            return 0;
        }
        int n = driver.jobCancelMany(new JobCancelParams(open, clock.instant(), "its workflow was cancelled")).length;
        checkCancels.run();
        return n;
    }

    /**
     * Retries workflow {@code id} from its failed tasks: each cancelled or discarded task runs
     * again once the tasks it runs after are done. Returns how many tasks were retried.
     */
    public int retryWorkflow(long id) {
        List<WorkflowTaskRow> tasks = existingTasks(id);
        long[] failed = tasks.stream()
                .filter(t -> t.state().isPresent()
                        && (t.state().get() == JobState.CANCELLED || t.state().get() == JobState.DISCARDED))
                .mapToLong(WorkflowTaskRow::jobId).toArray();
        if (failed.length == 0) {
            return 0;
        }
        int n = driver.jobRetryMany(new JobRetryManyParams(failed, clock.instant())).length;
        tasks.stream().filter(t -> t.state().isPresent()).map(t -> queueOf(t.jobId())).distinct().forEach(wake);
        return n;
    }

    private String queueOf(long jobId) {
        return driver.jobGet(jobId).map(j -> j.queue()).orElse(InsertOptions.DEFAULT_QUEUE);
    }

    private List<WorkflowTaskRow> existingTasks(long id) {
        if (workflow(id).isEmpty()) {
            throw new NotFoundException("there is no workflow " + id);
        }
        return driver.workflowTasks(id);
    }

    /**
     * The recorded outputs of the tasks job {@code jobId} runs after, by task name (empty for a
     * dependency that recorded none, or was deleted); an empty map when the job is no workflow task.
     */
    public Map<String, Optional<String>> dependencyOutputs(long jobId) {
        Optional<JobLinks> links = links(jobId);
        if (links.isEmpty() || links.get().workflowId().isEmpty()) {
            return Map.of();
        }
        Map<String, Optional<String>> outputs = new LinkedHashMap<>();
        List<Long> deps = links.get().waitsFor();
        for (WorkflowTaskRow task : driver.workflowTasks(links.get().workflowId().get())) {
            if (deps.contains(task.jobId())) {
                outputs.put(task.name(), task.output());
            }
        }
        return outputs;
    }

    public Optional<JobLinks> links(long jobId) {
        return driver.supportsLinks() ? driver.linkGet(jobId) : Optional.empty();
    }

    // ---- batches ----

    public BatchResult insertBatch(Connection transaction, Batch batch, List<InsertRequest> jobs) {
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("a batch needs at least one job: its callbacks run when its jobs end");
        }
        ObjectNode callbacks = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        Function<InsertRequest, ObjectNode> encoded =
                r -> BatchCallbacks.encode(inserter.resolve(List.of(r)).getFirst());
        batch.onSuccess().ifPresent(r -> callbacks.set(Links.ON_SUCCESS, encoded.apply(r)));
        batch.onComplete().ifPresent(r -> callbacks.set(Links.ON_COMPLETE, encoded.apply(r)));
        batch.onDiscard().ifPresent(r -> callbacks.set(Links.ON_DISCARD, encoded.apply(r)));
        return insertBatchJobs(transaction, new LinkInsertParams.NewBatch(batch.name().orElse(null), callbacks.toString()),
                0, jobs);
    }

    public BatchResult addToBatch(Connection transaction, long batchId, List<InsertRequest> jobs) {
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("no jobs to add to batch " + batchId);
        }
        return insertBatchJobs(transaction, null, batchId, jobs);
    }

    private BatchResult insertBatchJobs(Connection transaction, LinkInsertParams.NewBatch batch, long batchId,
            List<InsertRequest> jobs) {
        List<JobLink> links = new ArrayList<>(jobs.size());
        for (InsertRequest r : jobs) {
            links.add(Inserter.link(null, List.of(), Links.CANCEL, r.options().orElse(r.args().insertOptions()), true));
        }
        LinkInserted inserted = inserter.insertLinked(transaction, jobs, links, null, 0, batch, batchId);
        return new BatchResult(inserted.batchId(), inserted.jobs());
    }

    public Optional<BatchRow> batch(long id) {
        return driver.supportsLinks() ? driver.batchGet(id) : Optional.empty();
    }

    public List<BatchRow> batches(int limit, long beforeId) {
        return driver.supportsLinks() ? driver.batchList(new LinkListParams(checkLimit(limit), beforeId)) : List.of();
    }

    private static int checkLimit(int limit) {
        if (limit < 1 || limit > MAX_LIST) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIST + ", was " + limit);
        }
        return limit;
    }
}
