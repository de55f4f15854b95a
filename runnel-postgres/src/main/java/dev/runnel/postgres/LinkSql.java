package dev.runnel.postgres;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code link.sql}, and the parameters each binds. */
enum LinkSql implements SqlFile.Statement {
    WorkflowCreate(P.NAME, P.NOW),
    WorkflowExists(P.ID),
    WorkflowTasksNamed(P.WORKFLOW_ID, P.NAMES),
    BatchCreate(P.NAME, P.NOW, P.CALLBACKS),
    BatchAdd(P.JOBS, P.ID),
    SequenceEnsure(P.KEY),
    SequenceLast(P.KEY),
    SequenceSet(P.KEY, P.JOB_ID),
    JobStateLocked(P.ID),
    LinkInsertMany(P.JOB_IDS, P.WORKFLOW_IDS, P.TASKS, P.BATCH_IDS, P.SEQUENCE_KEYS, P.POLICIES, P.WAITING),
    EdgeInsertMany(P.JOB_IDS, P.DEP_IDS, P.POLICIES),
    BatchLockOf(P.IDS),
    BatchCount(P.IDS, P.OUTCOMES, P.SIGN),
    BatchFired(P.CALLBACK, P.JOB_ID, P.ID),
    EdgesOpen(P.IDS),
    EdgesClose(P.JOB_IDS, P.DEP_IDS),
    WaitingDecrement(P.JOB_IDS, P.BY),
    PendingRelease(P.IDS, P.NOW, P.CHANNEL),
    PendingCancel(P.IDS, P.NOW, P.ERRORS),
    EdgesOf(P.IDS),
    EdgesReopen(P.JOB_IDS, P.DEP_IDS),
    WaitingSet(P.JOB_IDS, P.WAITING),
    PendingMake(P.IDS),
    LinkedFinal(P.IDS),
    LinkedLock(P.IDS),
    LinkGet(P.ID),
    WorkflowGet(P.ID),
    WorkflowList(P.BEFORE_ID, P.LIMIT),
    WorkflowTasks(P.ID),
    BatchGet(P.ID),
    BatchList(P.BEFORE_ID, P.LIMIT),
    EdgesCleanOf(P.IDS),
    WorkflowLock(P.IDS),
    WorkflowCleanEmpty(P.IDS),
    BatchLock(P.IDS),
    BatchCleanEmpty(P.IDS),
    SequenceCleanGone(P.KEYS, P.IDS);

    /** The parameters of {@code link.sql}'s statements. */
    enum P implements SqlFile.Param {
        NAME, NOW, ID, WORKFLOW_ID, NAMES, CALLBACKS, JOBS, KEY, JOB_ID, JOB_IDS, WORKFLOW_IDS, TASKS, BATCH_IDS,
        SEQUENCE_KEYS, POLICIES, WAITING, DEP_IDS, IDS, OUTCOMES, SIGN, CALLBACK, BY, CHANNEL, ERRORS, BEFORE_ID,
        LIMIT, KEYS
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
