package dev.runnel;

/** What a workflow task does when a task it runs after ends cancelled, discarded or deleted. */
public enum DependencyPolicy {
    /** It is cancelled too, and so are the tasks after it that cancel (the default). */
    CANCEL,
    /** It runs all the same, once its other dependencies are done: a cleanup or report step. */
    RUN
}
