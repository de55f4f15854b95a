package dev.runnel.internal;

import dev.runnel.ErrorHandler;
import dev.runnel.InsertMiddleware;
import dev.runnel.WorkMiddleware;
import java.util.List;

/**
 * A client's hooks, copied from its builder: the insert and the work middleware in the order they
 * were registered (the first outermost), and the error handler, or null for none.
 */
public record Hooks(List<InsertMiddleware> insert, List<WorkMiddleware> work, ErrorHandler errorHandler) {
    /** No hooks: every insert, work and failure takes its plain path. */
    public static final Hooks NONE = new Hooks(List.of(), List.of(), null);

    public Hooks {
        insert = List.copyOf(insert);
        work = List.copyOf(work);
    }
}
