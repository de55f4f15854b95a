package dev.runnel;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * A workflow as stored: its id and name, when it was inserted, and how many of its tasks are in
 * each state ({@code deletedTasks} more were deleted, by hand or by the cleaner).
 */
public record WorkflowRow(long id, String name, Instant createdAt, Map<JobState, Integer> tasks, int deletedTasks) {
    public WorkflowRow {
        EnumMap<JobState, Integer> copy = new EnumMap<>(JobState.class);
        copy.putAll(tasks);
        tasks = Collections.unmodifiableMap(copy);
    }

    /** Where it stands: running until every task is final. */
    public WorkflowState state() {
        return WorkflowState.of(tasks, deletedTasks);
    }

    /** How many tasks it has, deleted ones included. */
    public int taskCount() {
        return tasks.values().stream().mapToInt(Integer::intValue).sum() + deletedTasks;
    }
}
