package dev.runnel.driver;

import dev.runnel.InsertResult;
import dev.runnel.JobError;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Workflows' dependencies, batches' counts and callbacks, and sequences' order: the logic every
 * driver that {@linkplain Driver#supportsLinks() supports links} shares, over the statements each
 * supplies ({@link InsertSteps}, {@link SettleSteps}). Internal SPI.
 *
 * <p>The model: a job tied to others has a link row (its workflow and task, its batch, its
 * sequence, how many of its dependencies are still open) and one edge per job it runs after.
 * An edge is open until its dependency's outcome settles it. A job with open edges is
 * {@code pending}; when its last edge closes, it becomes available (or scheduled) in the same
 * transaction that stored the outcome, which is why a crash can never leave it waiting, and why no
 * maintenance loop is involved. Plain jobs have no link row and never come here: the runtime
 * sends only the outcomes of jobs whose metadata carries {@link #METADATA_KEY}.
 */
public final class Links {
    /** Edge policy: a dependency that failed cancels the job, and the jobs after it that cancel. */
    public static final String CANCEL = "cancel";
    /** Edge policy: a dependency that failed counts as done. */
    public static final String RUN = "run";
    /**
     * Edge policy (sequences): a discarded predecessor holds the job until the predecessor is
     * retried and completes, or is cancelled or deleted; a cancelled or deleted one counts as done.
     */
    public static final String HOLD = "hold";

    /** The outcome of a job that was deleted before it was final. */
    public static final String DELETED = "deleted";

    /** The metadata key that marks a job as linked, so that its outcome goes through {@link #settle}. */
    public static final String METADATA_KEY = "linked";
    private static final String MARKER = "\"" + METADATA_KEY + "\"";

    /** The callbacks of a batch, as keys of its callbacks object. */
    public static final String ON_SUCCESS = "success";
    public static final String ON_COMPLETE = "complete";
    public static final String ON_DISCARD = "discard";

    private Links() {}

    /** Whether a job with this metadata is linked: a cheap test, as it runs on every outcome. */
    public static boolean isLinked(String metadata) {
        return metadata.length() > 2 && metadata.contains(MARKER);
    }

    /** A job that reached a final state, or was deleted before it did ({@link #DELETED}). */
    public record Finished(long id, String outcome) {
        static Finished of(long id, JobState state) {
            return new Finished(id, state.dbName());
        }
    }

    /** An edge: job {@code jobId} runs after {@code depId}. */
    public record Edge(long jobId, long depId, String policy) {}

    /** An edge with the current state of its dependency (empty once the dependency was deleted). */
    public record DepState(long jobId, long depId, String policy, Optional<JobState> depState) {}

    /** A job's open dependencies after a change. */
    public record Waiting(long jobId, int waiting) {}

    /** A pending job made available or scheduled. */
    public record Released(long id, String queue, JobState state) {}

    /** An existing workflow task, its job's state empty once the job was deleted. */
    public record Task(long jobId, Optional<JobState> state) {}

    /** A batch's counts after a change, and its callbacks and which of them were inserted. */
    public record BatchProgress(long id, long total, long completed, long cancelled, long discarded, long deleted,
            String callbacks, boolean successFired, boolean completeFired, boolean discardFired) {}

    /** The statements {@link #settle} and {@link #reopen} run, all in the caller's transaction. */
    public interface SettleSteps {
        /**
         * Adds (sign 1) or takes back (sign -1) the outcomes of {@code finished} to their batches'
         * counts, locking each batch's row until the transaction ends; returns the batches changed.
         */
        List<BatchProgress> batchCount(List<Finished> finished, int sign) throws SQLException;

        /** Records that batch {@code batchId}'s callback {@code callback} was inserted as job {@code jobId} (0: none was given). */
        void batchFired(long batchId, String callback, long jobId) throws SQLException;

        /** Inserts one plain job (a callback); returns its id. */
        long insertJob(JobInsertParams job) throws SQLException;

        /** The open edges from jobs {@code depIds}. */
        List<Edge> openEdges(long[] depIds) throws SQLException;

        /** Closes these edges. */
        void closeEdges(List<Edge> edges) throws SQLException;

        /** Takes {@code by[i]} from the open dependencies of job {@code jobIds[i]}; returns what each has left. */
        List<Waiting> decrement(long[] jobIds, int[] by) throws SQLException;

        /** Makes those of {@code ids} still pending available (or scheduled, if not due yet at {@code now}). */
        List<Released> release(long[] ids, long nowMicros) throws SQLException;

        /** Cancels those of {@code ids} still pending, appending {@code errors[i]} (JSON); returns the ids cancelled. */
        long[] cancelPending(long[] ids, String[] errors, long nowMicros) throws SQLException;

        /** Every edge from jobs {@code jobIds}, open or not, with its dependency's state. */
        List<DepState> edgesOf(long[] jobIds) throws SQLException;

        /** Opens these edges and sets each job's open count to the number given; {@code pending} jobs become pending. */
        void reopen(List<Edge> open, long[] jobIds, int[] waiting, long[] pending) throws SQLException;
    }

    /** The statements {@link #insert} runs, all in one transaction, besides those of {@link SettleSteps}. */
    public interface InsertSteps extends SettleSteps {
        long workflowCreate(String name, long nowMicros) throws SQLException;

        boolean workflowExists(long id) throws SQLException;

        /** The tasks named {@code names} of workflow {@code workflowId} that exist, each job's row locked. */
        Map<String, Task> workflowTasks(long workflowId, Set<String> names) throws SQLException;

        long batchCreate(String name, String callbacks, long nowMicros) throws SQLException;

        /** Adds {@code jobs} to batch {@code id}'s total; false when there is no such batch. */
        boolean batchAdd(long id, int jobs) throws SQLException;

        /** The last job inserted in sequence {@code key}, if any, with the sequence's row locked. */
        Optional<Long> sequenceLast(String key) throws SQLException;

        void sequenceSet(String key, long jobId) throws SQLException;

        /** The state of job {@code id} with its row locked; empty when it no longer exists. */
        Optional<JobState> jobStateLocked(long id) throws SQLException;

        /** Inserts the jobs as given; returns their results in order (none is unique). */
        List<InsertResult> insertJobs(List<JobInsertParams> jobs) throws SQLException;

        /** Writes the link rows of the jobs (nulls and zeros where a job has none of a tie). */
        void insertLinks(long[] jobIds, long workflowId, String[] tasks, long[] batchIds, String[] sequenceKeys,
                String[] policies, int[] waiting) throws SQLException;

        /** Writes these edges, open. */
        void insertEdges(List<Edge> edges) throws SQLException;
    }

    // ---- insert ----

    /**
     * Inserts linked jobs: creates the workflow or batch, resolves every dependency (new tasks,
     * existing tasks, a sequence's last job), writes the jobs (pending where a dependency is open),
     * their links and edges, then settles dependencies that had already failed.
     */
    public static LinkInserted insert(LinkInsertParams p, InsertSteps steps) throws SQLException {
        long now = Times.toMicros(p.now());
        long workflowId = p.workflowId();
        if (p.workflowName() != null) {
            workflowId = steps.workflowCreate(p.workflowName(), now);
        } else if (workflowId != 0 && !steps.workflowExists(workflowId)) {
            throw new NotFoundException("there is no workflow " + workflowId);
        }
        int inBatch = 0;
        for (JobLink link : p.links()) {
            inBatch += link.inBatch() ? 1 : 0;
        }
        long batchId = p.batchId();
        if (p.batch() != null) {
            batchId = steps.batchCreate(p.batch().name(), p.batch().callbacks(), now);
            steps.batchAdd(batchId, inBatch);
        } else if (batchId != 0 && !steps.batchAdd(batchId, inBatch)) {
            throw new NotFoundException("there is no batch " + batchId);
        }

        List<JobLink> links = p.links();
        int n = links.size();
        Map<String, Integer> newTasks = new HashMap<>();
        Set<String> existingNames = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            JobLink link = links.get(i);
            if (link.task() != null) {
                newTasks.put(link.task(), i);
                existingNames.add(link.task());
            }
        }
        for (JobLink link : links) {
            for (String dep : link.after()) {
                if (!newTasks.containsKey(dep)) {
                    existingNames.add(dep);
                }
            }
        }
        Map<String, Task> existing = workflowId == 0 || existingNames.isEmpty() ? Map.of()
                : steps.workflowTasks(workflowId, existingNames);
        for (String name : newTasks.keySet()) {
            if (existing.containsKey(name)) {
                throw new IllegalArgumentException("workflow " + workflowId + " has a task named " + name + " already");
            }
        }

        // Each job's open dependencies: an index into this insert (>= 0) or an existing job (-1 - id).
        List<List<long[]>> deps = new ArrayList<>(n);
        Map<Long, JobState> failedDeps = new LinkedHashMap<>();
        Map<String, Integer> lastInInsert = new HashMap<>();
        for (int i = 0; i < n; i++) {
            JobLink link = links.get(i);
            List<long[]> open = new ArrayList<>();
            for (String dep : link.after()) {
                Integer index = newTasks.get(dep);
                if (index != null) {
                    open.add(new long[] {index, policyCode(link.policy())});
                    continue;
                }
                Task task = existing.get(dep);
                if (task == null) {
                    throw new IllegalArgumentException("task " + link.task() + " runs after " + dep
                            + ", which is no task of workflow " + workflowId);
                }
                JobState state = task.state().orElse(null);
                if (state == JobState.COMPLETED) {
                    continue;
                }
                open.add(new long[] {-1 - task.jobId(), policyCode(link.policy())});
                if (state == null || state.isFinal()) {
                    failedDeps.put(task.jobId(), state);
                }
            }
            if (link.sequenceKey() != null) {
                Integer before = lastInInsert.put(link.sequenceKey(), i);
                if (before != null) {
                    open.add(new long[] {before, policyCode(link.sequencePolicy())});
                } else {
                    Optional<Long> last = steps.sequenceLast(link.sequenceKey());
                    if (last.isPresent()) {
                        Optional<JobState> state = steps.jobStateLocked(last.get());
                        boolean done = state.isEmpty() || state.get() == JobState.COMPLETED
                                || state.get() == JobState.CANCELLED
                                || (state.get() == JobState.DISCARDED && RUN.equals(link.sequencePolicy()));
                        if (!done) {
                            open.add(new long[] {-1 - last.get(), policyCode(link.sequencePolicy())});
                        }
                    }
                }
            }
            deps.add(open);
        }

        List<JobInsertParams> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            JobInsertParams job = p.jobs().get(i);
            rows.add(deps.get(i).isEmpty() ? job : pending(job));
        }
        List<InsertResult> results = steps.insertJobs(rows);
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = results.get(i).id();
        }
        List<Edge> edges = new ArrayList<>();
        String[] tasks = new String[n];
        long[] batches = new long[n];
        String[] sequences = new String[n];
        String[] policies = new String[n];
        int[] waiting = new int[n];
        for (int i = 0; i < n; i++) {
            JobLink link = links.get(i);
            tasks[i] = link.task();
            batches[i] = link.inBatch() ? batchId : 0;
            sequences[i] = link.sequenceKey();
            policies[i] = link.policy();
            waiting[i] = deps.get(i).size();
            for (long[] dep : deps.get(i)) {
                long depId = dep[0] >= 0 ? ids[(int) dep[0]] : -1 - dep[0];
                edges.add(new Edge(ids[i], depId, policyName((int) dep[1])));
            }
        }
        // Only jobs tied to something get a link row, and never a duplicate (its id is its holder's).
        int linked = 0;
        for (int i = 0; i < n; i++) {
            linked += links.get(i).any() && !results.get(i).duplicate() ? 1 : 0;
        }
        if (linked < n) {
            long[] lIds = new long[linked];
            String[] lTasks = new String[linked];
            long[] lBatches = new long[linked];
            String[] lSequences = new String[linked];
            String[] lPolicies = new String[linked];
            int[] lWaiting = new int[linked];
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (links.get(i).any() && !results.get(i).duplicate()) {
                    lIds[k] = ids[i];
                    lTasks[k] = tasks[i];
                    lBatches[k] = batches[i];
                    lSequences[k] = sequences[i];
                    lPolicies[k] = policies[i];
                    lWaiting[k++] = waiting[i];
                }
            }
            steps.insertLinks(lIds, workflowId, lTasks, lBatches, lSequences, lPolicies, lWaiting);
        } else {
            steps.insertLinks(ids, workflowId, tasks, batches, sequences, policies, waiting);
        }
        steps.insertEdges(edges);
        Map<String, Long> lastOfSequence = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            if (sequences[i] != null) {
                lastOfSequence.put(sequences[i], ids[i]);
            }
        }
        for (Map.Entry<String, Long> e : lastOfSequence.entrySet()) {
            steps.sequenceSet(e.getKey(), e.getValue());
        }
        Set<String> queues = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            if (rows.get(i).state() == JobState.AVAILABLE) {
                queues.add(rows.get(i).queue());
            }
        }
        if (!failedDeps.isEmpty()) {
            List<Finished> failed = new ArrayList<>();
            failedDeps.forEach((id, state) -> failed.add(new Finished(id, state == null ? DELETED : state.dbName())));
            for (Released r : settleEdges(failed, p.now(), steps)) {
                if (r.state() == JobState.AVAILABLE) {
                    queues.add(r.queue());
                }
            }
        }
        return new LinkInserted(workflowId, batchId, results, List.copyOf(queues));
    }

    private static JobInsertParams pending(JobInsertParams job) {
        return new JobInsertParams(job.kind(), job.args(), job.queue(), job.priority(), JobState.PENDING,
                job.createdAt(), job.scheduledAt(), job.maxAttempts(), job.tags(), job.metadata(), job.uniqueKey(),
                job.uniqueStates());
    }

    private static int policyCode(String policy) {
        return switch (policy) {
            case CANCEL -> 0;
            case RUN -> 1;
            case HOLD -> 2;
            default -> throw new IllegalArgumentException("unknown dependency policy " + policy);
        };
    }

    private static String policyName(int code) {
        return switch (code) {
            case 0 -> CANCEL;
            case 1 -> RUN;
            default -> HOLD;
        };
    }

    // ---- settle ----

    /**
     * Settles what the outcomes of {@code finished} release: their batches' counts and callbacks,
     * and the jobs that wait for them, cascading through jobs that are cancelled in turn. Returns
     * the jobs made available or scheduled, whose queues the driver then wakes.
     */
    public static List<Released> settle(List<Finished> finished, Instant now, SettleSteps steps) throws SQLException {
        if (finished.isEmpty()) {
            return List.of();
        }
        List<Released> released = new ArrayList<>();
        fireCallbacks(steps.batchCount(finished, 1), now, steps, released);
        released.addAll(settleEdges(finished, now, steps));
        return released;
    }

    /**
     * Settles the deletion of jobs whose states before it were {@code previous}: one not final yet
     * counts as {@link #DELETED} in its batch and for what waits for it; one final already only
     * releases what it still held (a sequence's next job held by a discarded one).
     */
    public static List<Released> settleDeleted(Map<Long, JobState> previous, Instant now, SettleSteps steps)
            throws SQLException {
        List<Finished> open = new ArrayList<>();
        List<Finished> done = new ArrayList<>();
        previous.forEach((id, state) -> (state.isFinal() ? done : open).add(new Finished(id, DELETED)));
        List<Released> released = new ArrayList<>(settle(open, now, steps));
        if (!done.isEmpty()) {
            released.addAll(settleEdges(done, now, steps));
        }
        return released;
    }

    /**
     * Settles jobs the cleaner deleted (final long since): they release only what they still held,
     * a sequence's next job held by a discarded one.
     */
    public static List<Released> settleCleaned(long[] ids, Instant now, SettleSteps steps) throws SQLException {
        List<Finished> gone = new ArrayList<>(ids.length);
        for (long id : ids) {
            gone.add(new Finished(id, DELETED));
        }
        return settleEdges(gone, now, steps);
    }

    private static List<Released> settleEdges(List<Finished> finished, Instant now, SettleSteps steps)
            throws SQLException {
        long nowMicros = Times.toMicros(now);
        List<Released> released = new ArrayList<>();
        List<Finished> frontier = finished;
        while (!frontier.isEmpty()) {
            Map<Long, String> outcomes = new HashMap<>();
            for (Finished f : frontier) {
                outcomes.put(f.id(), f.outcome());
            }
            List<Edge> edges = steps.openEdges(frontier.stream().mapToLong(Finished::id).toArray());
            List<Edge> close = new ArrayList<>();
            TreeMap<Long, Integer> decrement = new TreeMap<>();
            TreeMap<Long, String> cancel = new TreeMap<>();
            for (Edge e : edges) {
                String outcome = outcomes.get(e.depId());
                boolean failed = !JobState.COMPLETED.dbName().equals(outcome);
                if (!failed || RUN.equals(e.policy())
                        || (HOLD.equals(e.policy()) && !JobState.DISCARDED.dbName().equals(outcome))) {
                    close.add(e);
                    decrement.merge(e.jobId(), 1, Integer::sum);
                } else if (CANCEL.equals(e.policy())) {
                    close.add(e);
                    cancel.putIfAbsent(e.jobId(), "job " + e.depId() + ", which it runs after, was " + outcome);
                }
                // HOLD and discarded: the edge stays open until the dependency is retried or removed.
            }
            steps.closeEdges(close);
            List<Finished> next = new ArrayList<>();
            if (!cancel.isEmpty()) {
                long[] ids = cancel.keySet().stream().mapToLong(Long::longValue).toArray();
                String[] errors = new String[ids.length];
                int k = 0;
                for (String reason : cancel.values()) {
                    errors[k++] = JobJson.encodeError(new JobError(0, now, reason, ""));
                }
                for (long id : steps.cancelPending(ids, errors, nowMicros)) {
                    next.add(new Finished(id, JobState.CANCELLED.dbName()));
                }
                cancel.keySet().forEach(decrement::remove);
            }
            if (!decrement.isEmpty()) {
                long[] ids = decrement.keySet().stream().mapToLong(Long::longValue).toArray();
                int[] by = decrement.values().stream().mapToInt(Integer::intValue).toArray();
                List<Long> zero = new ArrayList<>();
                for (Waiting w : steps.decrement(ids, by)) {
                    if (w.waiting() <= 0) {
                        zero.add(w.jobId());
                    }
                }
                if (!zero.isEmpty()) {
                    released.addAll(steps.release(zero.stream().mapToLong(Long::longValue).sorted().toArray(), nowMicros));
                }
            }
            if (!next.isEmpty()) {
                fireCallbacks(steps.batchCount(next, 1), now, steps, released);
            }
            frontier = next;
        }
        return released;
    }

    /** Inserts the callbacks whose condition now holds for the first time. */
    private static void fireCallbacks(List<BatchProgress> batches, Instant now, SettleSteps steps,
            List<Released> released) throws SQLException {
        for (BatchProgress b : batches) {
            long finished = b.completed() + b.cancelled() + b.discarded() + b.deleted();
            if (!b.successFired() && b.total() > 0 && b.completed() == b.total()) {
                fire(b, ON_SUCCESS, now, steps, released);
            }
            if (!b.completeFired() && b.total() > 0 && finished == b.total()) {
                fire(b, ON_COMPLETE, now, steps, released);
            }
            if (!b.discardFired() && b.discarded() > 0) {
                fire(b, ON_DISCARD, now, steps, released);
            }
        }
    }

    private static void fire(BatchProgress b, String callback, Instant now, SettleSteps steps, List<Released> released)
            throws SQLException {
        JobInsertParams job = BatchCallbacks.job(b, callback, now);
        long id = job == null ? 0 : steps.insertJob(job); // 0: its condition held, with no callback to insert
        steps.batchFired(b.id(), callback, id);
        if (job != null) {
            released.add(new Released(id, job.queue(), job.state()));
        }
    }

    // ---- reopen ----

    /**
     * Takes jobs that were final back (a retry): their batches' counts lose them, and each
     * reopens the edges to dependencies that are not done, becoming pending while any is open.
     * {@code previous} holds each retried job's state before the retry.
     */
    public static List<Released> reopen(Map<Long, JobState> previous, Instant now, SettleSteps steps)
            throws SQLException {
        if (previous.isEmpty()) {
            return List.of();
        }
        List<Finished> leaving = new ArrayList<>();
        previous.forEach((id, state) -> {
            if (state.isFinal()) {
                leaving.add(Finished.of(id, state));
            }
        });
        if (!leaving.isEmpty()) {
            steps.batchCount(leaving, -1);
        }
        long[] ids = previous.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        List<DepState> edges = steps.edgesOf(ids);
        Map<Long, Integer> waiting = new TreeMap<>();
        List<Edge> open = new ArrayList<>();
        Map<Long, JobState> failed = new LinkedHashMap<>();
        Set<Long> deleted = new HashSet<>();
        for (DepState e : edges) {
            JobState dep = e.depState().orElse(null);
            boolean retriedToo = previous.containsKey(e.depId());
            boolean done = !retriedToo && (dep == JobState.COMPLETED
                    || (dep != null && dep.isFinal() || dep == null) && RUN.equals(e.policy())
                    || HOLD.equals(e.policy()) && (dep == null || dep == JobState.CANCELLED));
            if (done) {
                continue;
            }
            open.add(new Edge(e.jobId(), e.depId(), e.policy()));
            waiting.merge(e.jobId(), 1, Integer::sum);
            if (!retriedToo && (dep == null || dep.isFinal()) && CANCEL.equals(e.policy())) {
                if (dep == null) {
                    deleted.add(e.depId());
                } else {
                    failed.put(e.depId(), dep);
                }
            }
        }
        long[] withDeps = edges.stream().mapToLong(DepState::jobId).distinct().sorted().toArray();
        int[] counts = new int[withDeps.length];
        for (int i = 0; i < withDeps.length; i++) {
            counts[i] = waiting.getOrDefault(withDeps[i], 0);
        }
        long[] pending = waiting.keySet().stream().mapToLong(Long::longValue).toArray();
        steps.reopen(open, withDeps, counts, pending);
        List<Finished> settleAgain = new ArrayList<>();
        failed.forEach((id, state) -> settleAgain.add(Finished.of(id, state)));
        deleted.forEach(id -> settleAgain.add(new Finished(id, DELETED)));
        return settleEdges(settleAgain, now, steps);
    }
}
