package dev.runnel.web.internal;

import dev.runnel.AuditRow;
import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import dev.runnel.web.WebUser;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Every change the pages and the API make, through the same public API the CLI uses, each checked
 * against the user's role and written to the audit log with how many it changed.
 */
final class Operations {
    /** Bulk changes by filter read and change this many jobs per statement. */
    private static final int BULK_PAGE = 1_000;
    /** Counting a filter's matches before a bulk change stops here, and says "at least": one page of jobs. */
    static final long COUNT_CAP = JobQuery.MAX_LIMIT;
    /** How long counting a filter's matches before a bulk change may read: {@value} ms. */
    static final long COUNT_TIME_MILLIS = 100;
    /**
     * How long a listing asked for whole ({@code whole=true}) reads at most: {@value #WHOLE_SECONDS} s.
     * A bound on one request's work that a script can wait on; past it the page says it is
     * partial and where to go on, as a search's does.
     */
    static final long WHOLE_SECONDS = 5;
    static final Duration WHOLE_BUDGET = Duration.ofSeconds(WHOLE_SECONDS);
    /** A selection may name at most this many jobs; larger sets go by filter. */
    static final int MAX_SELECTION = 1_000;

    /** What can be done to jobs. */
    enum JobAction {
        RETRY, CANCEL, DELETE;

        static JobAction parse(String s) {
            try {
                return valueOf(s.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("action must be retry, cancel or delete; was " + s);
            }
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How many jobs a filter matches: exact below the cap, or at least the cap. */
    record Matches(long count, boolean atLeast) {}

    private final Runnel runnel;
    private final Supplier<Views.Counts> counts;
    private final Duration searchBudget;

    /**
     * {@code counts}: the dashboard's shared reading of the counts (Snapshots), not a count of its
     * own; {@code searchBudget}: how long a search without an index reads ({@link #search}).
     */
    Operations(Runnel runnel, Supplier<Views.Counts> counts, Duration searchBudget) {
        this.runnel = runnel;
        this.counts = counts;
        this.searchBudget = searchBudget;
    }

    /** A page of the jobs {@code query} matches, as a person searching gets it ({@code Jobs.search}). */
    JobPage search(JobQuery query) {
        return runnel.jobs().search(query, searchBudget);
    }

    /**
     * A page of the jobs {@code query} matches read whole, for an operator: every id from the cursor
     * until the page is full, but for at most {@link #WHOLE_BUDGET} (or the search budget, when
     * that is longer), after which the page is partial and goes on from where it stopped. A
     * read-only user gets {@link Forbidden}: a whole read of a table of millions is seconds of the
     * database's time, for anyone who may only look.
     */
    JobPage whole(WebUser user, JobQuery query) {
        if (!user.role().mayAct()) {
            throw new Forbidden(user.name() + " is read-only: only an operator may read a listing whole (whole=true);"
                    + " leave it out to search, and follow next_after");
        }
        return runnel.jobs().search(query, searchBudget.compareTo(WHOLE_BUDGET) > 0 ? searchBudget : WHOLE_BUDGET);
    }

    /**
     * The cursors either side of a page of a search asked for after or before an id (or neither):
     * the search reads towards older jobs, or from a page before towards newer ones, and goes on
     * from where it stopped; the way back starts at the page's first job (or its cursor).
     */
    record Cursors(Optional<Long> newerThan, Optional<Long> olderThan) {
        static Cursors of(JobPage page, Optional<Long> after, Optional<Long> before) {
            List<JobRow> rows = page.jobs();
            if (before.isEmpty()) {
                return new Cursors(rows.isEmpty() ? after : Optional.of(rows.getFirst().id()),
                        page.more().map(JobQuery::afterId));
            }
            return new Cursors(page.more().map(JobQuery::beforeId),
                    Optional.of(rows.isEmpty() ? before.get() : rows.getLast().id()));
        }
    }

    JobRow one(WebUser user, JobAction action, long id) {
        requireOperator(user);
        JobRow after = switch (action) {
            case RETRY -> runnel.jobs().retry(id);
            case CANCEL -> runnel.jobs().cancel(id);
            case DELETE -> {
                JobRow before = runnel.jobs().get(id).orElseThrow(() -> new NotFoundException("no job " + id));
                runnel.jobs().delete(id);
                yield before;
            }
        };
        audit(user, "job." + action.word(), "job " + id, 1);
        return after;
    }

    /** Applies {@code action} to each selected job that allows it (a running job is not deleted); returns how many. */
    long selection(WebUser user, JobAction action, long[] ids) {
        requireOperator(user);
        if (ids.length == 0) {
            throw new IllegalArgumentException("select at least one job");
        }
        if (ids.length > MAX_SELECTION) {
            throw new IllegalArgumentException("a selection may hold at most " + MAX_SELECTION + " jobs; act on the"
                    + " filter instead");
        }
        long changed = 0;
        for (long id : ids) {
            try {
                switch (action) {
                    case RETRY -> runnel.jobs().retry(id);
                    case CANCEL -> runnel.jobs().cancel(id);
                    case DELETE -> runnel.jobs().delete(id);
                }
                changed++;
            } catch (RunnelException e) {
                // One job of a selection that cannot be changed (running, gone) leaves the rest to go on.
            }
        }
        audit(user, "jobs." + action.word() + ".selected",
                "jobs " + Arrays.stream(ids).mapToObj(Long::toString).collect(Collectors.joining(",")), changed);
        return changed;
    }

    /**
     * Applies {@code action} to every job the filter matches; returns how many changed. An empty
     * filter is refused unless {@link JobFilter.Bulk#all()} says every job is meant, as the CLI
     * refuses a bulk change without a filter or {@code --all}.
     */
    long filter(WebUser user, JobAction action, JobFilter.Bulk bulk) {
        requireOperator(user);
        JobFilter filter = bulk.filter();
        if (filter.isEmpty() && !bulk.all()) {
            throw new IllegalArgumentException("an empty filter matches every job: give a filter (" + String.join(", ",
                    JobFilter.KEYS) + "), or \"all\": true to " + action.word() + " every job");
        }
        JobQuery query = filter.query().limit(BULK_PAGE);
        long changed = switch (action) {
            case RETRY -> runnel.jobs().retry(query);
            case CANCEL -> runnel.jobs().cancel(query);
            case DELETE -> runnel.jobs().delete(query);
        };
        audit(user, "jobs." + action.word() + ".filter", filter.describe(), changed);
        return changed;
    }

    /**
     * How many jobs {@code filter} matches, shown before a bulk change is confirmed. A state and a
     * queue (either or both, nothing else) are read off the dashboard's counts (a few seconds old
     * at most; on 10 million jobs, reading the matches of one queue's discarded jobs took 220 ms).
     * Any other filter reads its matches' ids, searching ({@link #search}) for at most
     * {@link #COUNT_TIME_MILLIS} ms and {@link #COUNT_CAP} ids, and says "at least" when it stops
     * short. Only asked on a confirmation, never on a refresh.
     */
    Matches count(JobFilter filter) {
        if (filter.kind().isEmpty() && filter.tag().isEmpty() && filter.id().isEmpty() && filter.args().isEmpty()) {
            Views.Counts now = counts.get();
            Map<JobState, Long> byState = filter.queue().map(q -> now.byQueue().getOrDefault(q, Map.of()))
                    .orElse(now.total());
            long n = filter.state().map(state -> byState.getOrDefault(state, 0L))
                    .orElseGet(() -> byState.values().stream().mapToLong(Long::longValue).sum());
            boolean estimated = !now.exact() && filter.state().map(s -> s == JobState.COMPLETED).orElse(true);
            return new Matches(n, estimated);
        }
        long deadline = System.nanoTime() + COUNT_TIME_MILLIS * 1_000_000;
        JobQuery page = filter.query().limit(JobQuery.MAX_LIMIT);
        long n = 0;
        while (true) {
            long left = Math.max(0, deadline - System.nanoTime());
            JobPage found = runnel.jobs().search(page, Duration.ofNanos(left));
            n += found.jobs().size();
            if (found.more().isEmpty()) {
                return new Matches(n, false);
            }
            if (n >= COUNT_CAP || System.nanoTime() - deadline >= 0) {
                return new Matches(n, true);
            }
            page = found.more().get();
        }
    }

    /** What can be done to a workflow. */
    enum WorkflowAction {
        CANCEL, RETRY;

        static WorkflowAction parse(String s) {
            return switch (s) {
                case "cancel" -> CANCEL;
                case "retry" -> RETRY;
                default -> throw new NotFoundException("no action " + s + " for a workflow: cancel or retry");
            };
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Cancels workflow {@code id} (every task not final) or retries it (every cancelled or
     * discarded task); returns how many tasks changed. Audited as {@code workflow.cancel} or
     * {@code workflow.retry}, with that count.
     */
    int workflow(WebUser user, WorkflowAction action, long id) {
        requireOperator(user);
        int changed = switch (action) {
            case CANCEL -> runnel.workflows().cancel(id);
            case RETRY -> runnel.workflows().retry(id);
        };
        audit(user, "workflow." + action.word(), "workflow " + id, changed);
        return changed;
    }

    void queue(WebUser user, String name, boolean pause) {
        requireOperator(user);
        if (pause) {
            runnel.queues().pause(name);
        } else {
            runnel.queues().resume(name);
        }
        audit(user, pause ? "queue.pause" : "queue.resume", "queue " + name, 1);
    }

    void periodic(WebUser user, String name, boolean pause) {
        requireOperator(user);
        if (pause) {
            runnel.periodic().pause(name);
        } else {
            runnel.periodic().resume(name);
        }
        audit(user, pause ? "periodic.pause" : "periodic.resume", "periodic " + name, 1);
    }

    List<AuditRow> audit(long beforeId, int limit) {
        return runnel.audit().list(beforeId, limit);
    }

    private void audit(WebUser user, String action, String target, long count) {
        runnel.audit().record(user.name(), action, target, count);
    }

    static void requireOperator(WebUser user) {
        if (!user.role().mayAct()) {
            throw new Forbidden(user.name() + " is read-only: only an operator may change jobs, workflows, queues or periodic jobs");
        }
    }

    /** A refusal for lack of a role or a CSRF token: 403. */
    static final class Forbidden extends RuntimeException {
        Forbidden(String message) {
            super(message);
        }
    }
}
