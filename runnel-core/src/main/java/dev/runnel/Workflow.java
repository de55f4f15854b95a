package dev.runnel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A graph of jobs: tasks that each run once the tasks they run after are done. Built and checked
 * (no cycle, no unknown or duplicate name, not empty) before anything is written, then inserted in
 * one call with {@link Workflows#insert}. A task waiting for others is {@link JobState#PENDING}:
 * it is never claimed, and it becomes available in the same write that stores the completion of
 * the last task it waits for.
 *
 * <pre>{@code
 * Workflow upload = Workflow.builder("upload-42")
 *         .task("fetch", new Fetch(url))
 *         .task("resize", new Resize(url), "fetch")
 *         .task("scan", new Scan(url), "fetch")
 *         .task(WorkflowTask.of("notify", new Notify(42)).after("resize", "scan"))
 *         .build();
 * long id = runnel.workflows().insert(upload).id();
 * }</pre>
 */
public final class Workflow {
    private final String name;
    private final List<WorkflowTask> tasks;

    private Workflow(String name, List<WorkflowTask> tasks) {
        this.name = name;
        this.tasks = List.copyOf(tasks);
    }

    /** A new workflow named {@code name} (for people: names need not be unique). */
    public static Builder builder(String name) {
        return new Builder(InsertOptions.validateName("workflow name", name));
    }

    public String name() {
        return name;
    }

    /** The tasks, in the order they were added (and are inserted). */
    public List<WorkflowTask> tasks() {
        return tasks;
    }

    /**
     * Checks tasks to insert together: names unique, no cycle among them, and, when
     * {@code allowOutside} is false, every dependency one of them. Throws
     * {@link IllegalArgumentException} naming the task at fault.
     */
    static void check(List<WorkflowTask> tasks, boolean allowOutside) {
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("a workflow needs at least one task");
        }
        Map<String, WorkflowTask> byName = new LinkedHashMap<>();
        for (WorkflowTask task : tasks) {
            if (byName.putIfAbsent(task.name(), task) != null) {
                throw new IllegalArgumentException("two tasks are named " + task.name());
            }
        }
        Map<String, Integer> waiting = new HashMap<>();
        Map<String, List<String>> dependents = new HashMap<>();
        for (WorkflowTask task : tasks) {
            int inside = 0;
            for (String dep : task.after()) {
                if (!byName.containsKey(dep)) {
                    if (!allowOutside) {
                        throw new IllegalArgumentException("task " + task.name() + " runs after " + dep
                                + ", which is no task of the workflow");
                    }
                    continue;
                }
                inside++;
                dependents.computeIfAbsent(dep, d -> new ArrayList<>()).add(task.name());
            }
            waiting.put(task.name(), inside);
        }
        Deque<String> ready = new ArrayDeque<>();
        waiting.forEach((task, n) -> {
            if (n == 0) {
                ready.add(task);
            }
        });
        int ordered = 0;
        while (!ready.isEmpty()) {
            String task = ready.poll();
            ordered++;
            for (String next : dependents.getOrDefault(task, List.of())) {
                if (waiting.merge(next, -1, Integer::sum) == 0) {
                    ready.add(next);
                }
            }
        }
        if (ordered < tasks.size()) {
            for (WorkflowTask task : tasks) {
                if (waiting.get(task.name()) > 0) {
                    throw new IllegalArgumentException("the workflow has a cycle through task " + task.name()
                            + ": no order runs every task after the tasks it names");
                }
            }
        }
    }

    /** Builds a {@link Workflow}; {@link #build} checks the graph. */
    public static final class Builder {
        private final String name;
        private final List<WorkflowTask> tasks = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /** Adds a task. */
        public Builder task(WorkflowTask task) {
            if (task == null) {
                throw new IllegalArgumentException("task must not be null");
            }
            tasks.add(task);
            return this;
        }

        /** Adds a task with default options that runs after the tasks named {@code after}. */
        public Builder task(String name, JobArgs args, String... after) {
            return task(WorkflowTask.of(name, args).after(after));
        }

        /**
         * The workflow, once its graph checks out: at least one task, names unique, every
         * dependency a task of the workflow, no cycle. Throws {@link IllegalArgumentException}
         * naming the task at fault.
         */
        public Workflow build() {
            check(tasks, false);
            return new Workflow(name, tasks);
        }
    }
}
