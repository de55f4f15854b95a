package dev.runnel;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * One task of a {@link Workflow}: a job (its args and options) with a name unique in its
 * workflow, the tasks it runs after, and what it does when one of those fails. Immutable: each
 * {@code with} method returns a new task.
 *
 * <pre>{@code
 * WorkflowTask notify = WorkflowTask.of("notify", new Notify(upload))
 *         .after("resize", "scan")
 *         .onDependencyFailure(DependencyPolicy.RUN);
 * }</pre>
 */
public record WorkflowTask(String name, JobArgs args, InsertOptions options, List<String> after,
        DependencyPolicy onDependencyFailure) {
    public WorkflowTask {
        InsertOptions.validateName("task name", name);
        if (args == null) {
            throw new IllegalArgumentException("task " + name + ": args must not be null");
        }
        if (options == null || onDependencyFailure == null) {
            throw new IllegalArgumentException("task " + name + ": options and onDependencyFailure must not be null");
        }
        if (options.unique().isPresent()) {
            throw new IllegalArgumentException("task " + name + ": a workflow task cannot be unique");
        }
        after = List.copyOf(new LinkedHashSet<>(after));
        for (String dep : after) {
            InsertOptions.validateName("task " + name + "'s dependency", dep);
            if (dep.equals(name)) {
                throw new IllegalArgumentException("task " + name + " runs after itself");
            }
        }
    }

    /** A task with default options that runs at once, after nothing. */
    public static WorkflowTask of(String name, JobArgs args) {
        return new WorkflowTask(name, args, InsertOptions.NONE, List.of(), DependencyPolicy.CANCEL);
    }

    /** This task, run once every task named here is done (and those given before). */
    public WorkflowTask after(String... tasks) {
        List<String> all = new java.util.ArrayList<>(after);
        all.addAll(List.of(tasks));
        return new WorkflowTask(name, args, options, all, onDependencyFailure);
    }

    /** This task with these insert options (queue, priority, schedule, attempts, tags, metadata, sequence). */
    public WorkflowTask options(InsertOptions options) {
        return new WorkflowTask(name, args, options, after, onDependencyFailure);
    }

    /** This task with {@code policy} for a dependency that ends cancelled, discarded or deleted. */
    public WorkflowTask onDependencyFailure(DependencyPolicy policy) {
        return new WorkflowTask(name, args, options, after, policy);
    }
}
