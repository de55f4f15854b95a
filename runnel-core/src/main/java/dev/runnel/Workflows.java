package dev.runnel;

import dev.runnel.internal.LinkAdmin;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Workflows: inserted whole, grown by their own jobs, read, cancelled and retried, from any
 * client. Handed out by {@link Runnel#workflows()}.
 *
 * <p>A task whose dependencies are not all done is {@link JobState#PENDING}. The write that
 * stores a task's completion also makes the tasks that waited only for it available, in the same
 * transaction, so a crash cannot leave them waiting and no maintenance loop is involved. A task
 * whose dependency ends cancelled, discarded or deleted is cancelled in turn
 * ({@link DependencyPolicy#CANCEL}, the default, cascading down the graph) or runs all the same
 * ({@link DependencyPolicy#RUN}). Workflows need a driver that stores them (SQLite, Postgres);
 * on another, every method here that writes throws {@link UnsupportedOperationException}.
 */
public final class Workflows {
    private final LinkAdmin admin;

    Workflows(LinkAdmin admin) {
        this.admin = admin;
    }

    /** Inserts a workflow, all its tasks or none. */
    public WorkflowResult insert(Workflow workflow) {
        return admin.insertWorkflow(null, workflow);
    }

    /** Inserts a workflow inside the caller's transaction: it exists only if the caller commits. */
    public WorkflowResult insert(Connection transaction, Workflow workflow) {
        return admin.insertWorkflow(transaction, workflow);
    }

    /**
     * Adds tasks to workflow {@code id}, say from one of its own jobs while it runs (a fetch that
     * learns how many files there are). A task may run after tasks added with it and after tasks
     * already in the workflow: one already completed counts as done, one that failed applies the
     * new task's policy at once. Names must be new to the workflow.
     *
     * @throws NotFoundException if there is no such workflow
     * @throws IllegalArgumentException if a name is taken, a dependency is no task of the
     *     workflow, or the new tasks form a cycle (nothing is written)
     */
    public WorkflowResult add(long id, List<WorkflowTask> tasks) {
        Workflow.check(tasks, true);
        return admin.addTasks(null, id, tasks);
    }

    /** Adds tasks, as {@link #add(long, List)}. */
    public WorkflowResult add(long id, WorkflowTask... tasks) {
        return add(id, List.of(tasks));
    }

    /** Adds tasks inside the caller's transaction, as {@link #add(long, List)}. */
    public WorkflowResult add(Connection transaction, long id, List<WorkflowTask> tasks) {
        Workflow.check(tasks, true);
        return admin.addTasks(transaction, id, tasks);
    }

    /** The workflow with this id, with its tasks counted by state, if it exists. */
    public Optional<WorkflowRow> get(long id) {
        return admin.workflow(id);
    }

    /** The tasks of workflow {@code id}, in the order they were inserted; empty when there is no such workflow. */
    public List<WorkflowTaskRow> tasks(long id) {
        return admin.tasks(id);
    }

    /** Up to {@code limit} (1 to 1,000) workflows, newest first. */
    public List<WorkflowRow> list(int limit) {
        return admin.workflows(limit, 0);
    }

    /** Up to {@code limit} workflows with ids below {@code beforeId}, newest first: the next page. */
    public List<WorkflowRow> list(int limit, long beforeId) {
        return admin.workflows(limit, beforeId);
    }

    /**
     * Cancels workflow {@code id}: every task not yet final is cancelled (a running one is told,
     * as {@link Jobs#cancel(long)} does). Returns how many tasks it cancelled or told.
     *
     * @throws NotFoundException if there is no such workflow
     */
    public int cancel(long id) {
        return admin.cancelWorkflow(id);
    }

    /**
     * Retries workflow {@code id} from its failed tasks: every cancelled or discarded task runs
     * again once the tasks it runs after are done, and the tasks after it with it. Returns how
     * many tasks it retried.
     *
     * @throws NotFoundException if there is no such workflow
     */
    public int retry(long id) {
        return admin.retryWorkflow(id);
    }

    /**
     * The outputs ({@link Job#recordOutput}) of the tasks job {@code jobId} runs after, by task
     * name: what a task reads of the work before it. Empty values for dependencies that recorded
     * none; an empty map for a job that is no workflow task.
     */
    public Map<String, Optional<String>> dependencyOutputs(long jobId) {
        return admin.dependencyOutputs(jobId);
    }
}
