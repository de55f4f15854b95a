package dev.runnel.sqlite;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code link.sql}, and the parameters each binds. */
enum LinkSql implements SqlFile.Statement {
    WorkflowCreate(P.NAME, P.NOW),
    WorkflowExists(P.ID),
    WorkflowTasksNamed(P.WORKFLOW_ID, P.NAMES),
    BatchCreate(P.NAME, P.NOW, P.CALLBACKS),
    BatchAdd(P.JOBS, P.ID),
    SequenceLast(P.KEY),
    SequenceSet(P.KEY, P.JOB_ID),
    JobState(P.ID),
    LinkInsertMany(P.LINKS),
    EdgeInsertMany(P.EDGES),
    BatchCount(P.SIGN, P.FINISHED),
    BatchFired(P.CALLBACK, P.JOB_ID, P.ID),
    EdgesOpen(P.IDS),
    EdgesClose(P.EDGES),
    WaitingDecrement(P.BY),
    PendingRelease(P.NOW, P.IDS),
    PendingCancel(P.NOW, P.CANCELS),
    EdgesOf(P.IDS),
    EdgesReopen(P.EDGES),
    WaitingSet(P.WAITING),
    PendingMake(P.IDS),
    LinkedAmong(P.IDS),
    LinkGet(P.ID),
    LinkWaitsFor(P.ID),
    LinkWaitedOnBy(P.ID),
    WorkflowGet(P.ID),
    WorkflowList(P.BEFORE_ID, P.LIMIT),
    WorkflowCounts(P.IDS),
    WorkflowTasks(P.ID),
    WorkflowTaskDeps(P.ID),
    BatchGet(P.ID),
    BatchList(P.BEFORE_ID, P.LIMIT),
    LinkCleanOrphans(P.MAX_ID, P.LIMIT),
    EdgesCleanOf(P.IDS),
    WorkflowCleanEmpty(P.IDS),
    BatchCleanEmpty(P.IDS),
    SequenceCleanGone(P.KEYS);

    /** The parameters of {@code link.sql}'s statements. */
    enum P implements SqlFile.Param {
        NAME, NOW, ID, WORKFLOW_ID, NAMES, CALLBACKS, JOBS, KEY, JOB_ID, LINKS, EDGES, SIGN, FINISHED, CALLBACK, IDS,
        BY, CANCELS, WAITING, BEFORE_ID, LIMIT, MAX_ID, KEYS
    }

    private final List<P> params;

    LinkSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}
