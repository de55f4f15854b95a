package dev.runnel;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A workflow, or the tasks added to one, as inserted: the workflow's id and each task's job id by name. */
public record WorkflowResult(long id, Map<String, Long> tasks) {
    public WorkflowResult {
        tasks = Collections.unmodifiableMap(new LinkedHashMap<>(tasks));
    }

    /** The job id of task {@code name}. */
    public long task(String name) {
        Long id = tasks.get(name);
        if (id == null) {
            throw new IllegalArgumentException("no task " + name + " was inserted");
        }
        return id;
    }
}
