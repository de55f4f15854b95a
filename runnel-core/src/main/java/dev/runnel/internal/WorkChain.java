package dev.runnel.internal;

import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.WorkMiddleware;
import dev.runnel.Worker;
import java.util.List;

/**
 * Calls a worker through a client's work middleware, the first registered outermost. With none
 * it calls the worker directly: a client without middleware allocates nothing for it per job.
 */
final class WorkChain {
    private WorkChain() {}

    static <T extends JobArgs> void run(List<WorkMiddleware> chain, Worker<T> worker, Job<T> job) throws Exception {
        if (chain.isEmpty()) {
            worker.work(job);
        } else {
            chain.getFirst().work(job, new Link<>(chain, 1, worker, job));
        }
    }

    /** The rest of the chain after the middleware at {@code index - 1}. */
    private static final class Link<T extends JobArgs> implements WorkMiddleware.Next {
        private final List<WorkMiddleware> chain;
        private final int index;
        private final Worker<T> worker;
        private final Job<T> job;
        private boolean called;

        Link(List<WorkMiddleware> chain, int index, Worker<T> worker, Job<T> job) {
            this.chain = chain;
            this.index = index;
            this.worker = worker;
            this.job = job;
        }

        @Override
        public void proceed() throws Exception {
            if (called) {
                // Running a worker twice in one attempt would repeat its effects unrecorded.
                throw new IllegalStateException("work middleware " + chain.get(index - 1)
                        + " called next.proceed() twice for " + job);
            }
            called = true;
            if (index == chain.size()) {
                worker.work(job);
            } else {
                chain.get(index).work(job, new Link<>(chain, index + 1, worker, job));
            }
        }
    }
}
