package dev.runnel;

import java.util.List;
import java.util.Optional;

/**
 * One task of a workflow as stored: its name, its job (whose state is empty once the job was
 * deleted), the tasks it runs after, and what it does when one of them fails.
 */
public record WorkflowTaskRow(String name, long jobId, String kind, Optional<JobState> state, List<String> after,
        DependencyPolicy onDependencyFailure, Optional<String> output) {
    public WorkflowTaskRow {
        after = List.copyOf(after);
    }
}
