package dev.runnel;

import java.util.Map;

/** Where a workflow stands, from its tasks' states. */
public enum WorkflowState {
    /** Some task is not final yet. */
    RUNNING,
    /** Every task completed. */
    COMPLETED,
    /** Every task is final and at least one was discarded. */
    FAILED,
    /** Every task is final, none discarded, and at least one cancelled or deleted. */
    CANCELLED;

    /** The state of a workflow whose tasks are in {@code tasks} (counts by state) and {@code deleted} more were deleted. */
    public static WorkflowState of(Map<JobState, Integer> tasks, int deleted) {
        boolean discarded = false;
        boolean cancelled = deleted > 0;
        for (Map.Entry<JobState, Integer> e : tasks.entrySet()) {
            if (e.getValue() == 0) {
                continue;
            }
            if (!e.getKey().isFinal()) {
                return RUNNING;
            }
            discarded |= e.getKey() == JobState.DISCARDED;
            cancelled |= e.getKey() == JobState.CANCELLED;
        }
        return discarded ? FAILED : cancelled ? CANCELLED : COMPLETED;
    }
}
