-- The Postgres driver's statements for workflows, batches and sequences (Links in runnel-core holds
-- the logic). {schema} is the driver's validated, quoted schema. Every write runs in the
-- transaction that stores the insert or the outcome, under READ COMMITTED, with many clients at
-- once; what keeps them apart:
--  * Every statement that settles an outcome runs after the outcome's own UPDATE, as a statement
--    of its own, so its snapshot is taken once the outcome's job rows are locked: an insert that
--    locked one of those rows first (JobStateLocked, WorkflowTasksNamed) and added an edge to it
--    has committed by then, and its edge is seen.
--  * Rows several writers change are locked in one order, each kind sorted by id: batches
--    (BatchLockOf before the outcome, BatchCount), then job rows, then edges, then link rows
--    (WaitingDecrement), then the pending jobs released or cancelled.
--  * Counts are changed in place (waiting = waiting - n, completed = completed + n) under the
--    row's lock, and RETURNING gives the exact count after the change: of twenty completions
--    that each close one of a join's twenty edges, exactly one sees 0 and releases it.
-- Lists travel as arrays expanded by unnest; times as bigint microseconds since the epoch,
-- turned into timestamptz exactly as job.sql does.

-- name: WorkflowCreate
INSERT INTO {schema}.runnel_workflow (name, created_at)
VALUES (:name, timestamptz 'epoch' + :now::bigint / 1000000 * interval '1 second' + :now::bigint % 1000000 * interval '1 microsecond')
RETURNING id;

-- name: WorkflowExists
-- The workflow's row, locked FOR SHARE until the insert commits, so that the cleaner does not
-- take a workflow that tasks are being added to (WorkflowLock).
SELECT id FROM {schema}.runnel_workflow WHERE id = :id FOR SHARE;

-- name: WorkflowTasksNamed
-- The tasks named :names of workflow :workflow_id, with their jobs' states (NULL: deleted), each
-- job's row locked FOR SHARE in id order until the insert commits: a completion of one of them
-- waits for the insert, and then sees the edges it added; or it came first, and the lock, granted
-- after it committed, returns the state it left.
WITH tasks AS MATERIALIZED (
    SELECT task, job_id FROM {schema}.runnel_link
    WHERE workflow_id = :workflow_id AND task = ANY (:names::text[])
),
locked AS MATERIALIZED (
    SELECT j.id, j.state FROM {schema}.runnel_job j
    WHERE j.id IN (SELECT job_id FROM tasks)
    ORDER BY j.id
    FOR SHARE
)
SELECT t.task, t.job_id, l.state FROM tasks t LEFT JOIN locked l ON l.id = t.job_id;

-- name: BatchCreate
INSERT INTO {schema}.runnel_batch (name, created_at, callbacks)
VALUES (:name, timestamptz 'epoch' + :now::bigint / 1000000 * interval '1 second' + :now::bigint % 1000000 * interval '1 microsecond',
        :callbacks::jsonb)
RETURNING id;

-- name: BatchAdd
-- Locks the batch's row until the insert commits: the outcomes of its jobs count after it.
UPDATE {schema}.runnel_batch SET total = total + :jobs WHERE id = :id;

-- name: SequenceEnsure
-- The first of two statements: the sequence's row, made if missing, for SequenceLast to lock. An
-- insert that made it and has not committed yet holds this one up until it has.
INSERT INTO {schema}.runnel_sequence (key, last_job_id) VALUES (:key, 0) ON CONFLICT (key) DO NOTHING;

-- name: SequenceLast
-- The sequence's last job (0: none), its row locked until the insert commits, so inserts into one
-- sequence take turns and each sees the job the one before it added. A statement of its own,
-- after SequenceEnsure: its snapshot sees a row another insert made meanwhile.
SELECT last_job_id FROM {schema}.runnel_sequence WHERE key = :key FOR UPDATE;

-- name: SequenceSet
INSERT INTO {schema}.runnel_sequence (key, last_job_id) VALUES (:key, :job_id)
ON CONFLICT (key) DO UPDATE SET last_job_id = excluded.last_job_id;

-- name: JobStateLocked
-- A job's state, its row locked FOR SHARE until the insert commits (see WorkflowTasksNamed).
SELECT state FROM {schema}.runnel_job WHERE id = :id FOR SHARE;

-- name: LinkInsertMany
INSERT INTO {schema}.runnel_link (job_id, workflow_id, task, batch_id, sequence_key, policy, waiting)
SELECT * FROM unnest(:job_ids::bigint[], :workflow_ids::bigint[], :tasks::text[], :batch_ids::bigint[],
                     :sequence_keys::text[], :policies::text[], :waiting::integer[]);

-- name: EdgeInsertMany
-- Each edge open.
INSERT INTO {schema}.runnel_link_dep (job_id, dep_id, policy)
SELECT * FROM unnest(:job_ids::bigint[], :dep_ids::bigint[], :policies::text[]);

-- name: BatchLockOf
-- Before an outcome's UPDATE: the batches of jobs :ids, locked in id order, so that every writer
-- takes a batch's lock before its jobs' (an insert adding to a batch takes it first too, in
-- BatchAdd). Taken after, an insert holding the batch and waiting for a job of it, and the job's
-- completion holding the job and waiting for the batch, would each wait for the other.
SELECT b.id FROM {schema}.runnel_batch b
WHERE b.id IN (SELECT l.batch_id FROM {schema}.runnel_link l WHERE l.job_id = ANY (:ids::bigint[]))
ORDER BY b.id
FOR UPDATE;

-- name: BatchCount
-- Adds :sign times the outcomes (:ids[i] ended :outcomes[i]) to their batches' counts, each
-- batch's row locked in id order first; returns each batch changed, as it is after the change.
WITH x AS (
    SELECT l.batch_id,
           count(*) FILTER (WHERE f.outcome = 'completed') AS completed,
           count(*) FILTER (WHERE f.outcome = 'cancelled') AS cancelled,
           count(*) FILTER (WHERE f.outcome = 'discarded') AS discarded,
           count(*) FILTER (WHERE f.outcome = 'deleted') AS deleted
    FROM unnest(:ids::bigint[], :outcomes::text[]) AS f(id, outcome)
    JOIN {schema}.runnel_link l ON l.job_id = f.id
    WHERE l.batch_id IS NOT NULL
    GROUP BY l.batch_id
),
locked AS MATERIALIZED (
    SELECT b.id FROM {schema}.runnel_batch b WHERE b.id IN (SELECT batch_id FROM x) ORDER BY b.id FOR UPDATE
)
UPDATE {schema}.runnel_batch b
SET completed = b.completed + :sign::integer * x.completed,
    cancelled = b.cancelled + :sign::integer * x.cancelled,
    discarded = b.discarded + :sign::integer * x.discarded,
    deleted = b.deleted + :sign::integer * x.deleted
FROM x
WHERE b.id = x.batch_id AND b.id = ANY (ARRAY(SELECT id FROM locked))
RETURNING b.id, b.total, b.completed, b.cancelled, b.discarded, b.deleted, b.callbacks::text,
          b.success_job_id IS NOT NULL, b.complete_job_id IS NOT NULL, b.discard_job_id IS NOT NULL;

-- name: BatchFired
-- Records callback :callback of batch :id as inserted as job :job_id (0: it has no such callback).
UPDATE {schema}.runnel_batch
SET success_job_id = CASE WHEN :callback::text = 'success' THEN :job_id::bigint ELSE success_job_id END,
    complete_job_id = CASE WHEN :callback::text = 'complete' THEN :job_id::bigint ELSE complete_job_id END,
    discard_job_id = CASE WHEN :callback::text = 'discard' THEN :job_id::bigint ELSE discard_job_id END
WHERE id = :id;

-- name: EdgesOpen
-- The open edges from jobs :ids, locked: an edge another writer closed meanwhile is not returned.
SELECT job_id, dep_id, policy FROM {schema}.runnel_link_dep
WHERE dep_id = ANY (:ids::bigint[]) AND open
ORDER BY job_id, dep_id
FOR UPDATE;

-- name: EdgesClose
UPDATE {schema}.runnel_link_dep d SET open = false
FROM unnest(:job_ids::bigint[], :dep_ids::bigint[]) AS x(job_id, dep_id)
WHERE d.job_id = x.job_id AND d.dep_id = x.dep_id;

-- name: WaitingDecrement
-- Takes :by[i] from the open edges of job :job_ids[i], the link rows locked in id order first
-- (completions that share waiting jobs lock them in one order); returns what each has left.
WITH locked AS MATERIALIZED (
    SELECT job_id FROM {schema}.runnel_link WHERE job_id = ANY (:job_ids::bigint[]) ORDER BY job_id FOR UPDATE
)
UPDATE {schema}.runnel_link l SET waiting = l.waiting - x.n
FROM unnest(:job_ids::bigint[], :by::integer[]) AS x(job_id, n)
WHERE l.job_id = x.job_id AND l.job_id = ANY (ARRAY(SELECT job_id FROM locked))
RETURNING l.job_id, l.waiting;

-- name: PendingRelease
-- Jobs :ids still pending become available, or scheduled if their time is after :now; then one
-- notification per queue that got available jobs on channel :channel, sent at commit, so that
-- every process wakes for them at once.
WITH locked AS MATERIALIZED (
    SELECT id FROM {schema}.runnel_job WHERE id = ANY (:ids::bigint[]) AND state = 'pending' ORDER BY id FOR UPDATE
),
released AS (
    UPDATE {schema}.runnel_job j
    SET state = CASE WHEN j.scheduled_at > timestamptz 'epoch' + :now::bigint / 1000000 * interval '1 second'
                                           + :now::bigint % 1000000 * interval '1 microsecond'
                     THEN 'scheduled' ELSE 'available' END::{schema}.runnel_job_state
    WHERE j.id = ANY (ARRAY(SELECT id FROM locked)) AND j.state = 'pending'
    RETURNING j.id, j.queue, j.state
)
SELECT id, queue, state FROM released
WHERE (SELECT count(pg_notify(:channel, q.queue))
       FROM (SELECT DISTINCT queue FROM released WHERE state = 'available') AS q) >= 0;

-- name: PendingCancel
-- Jobs :ids still pending are cancelled at :now, each with its error :errors[i] (JSON) appended.
WITH locked AS MATERIALIZED (
    SELECT id FROM {schema}.runnel_job WHERE id = ANY (:ids::bigint[]) AND state = 'pending' ORDER BY id FOR UPDATE
)
UPDATE {schema}.runnel_job j
SET state = 'cancelled',
    finalized_at = timestamptz 'epoch' + :now::bigint / 1000000 * interval '1 second' + :now::bigint % 1000000 * interval '1 microsecond',
    errors = array_append(j.errors, x.error::jsonb)
FROM unnest(:ids::bigint[], :errors::text[]) AS x(id, error)
WHERE j.id = x.id AND j.id = ANY (ARRAY(SELECT id FROM locked)) AND j.state = 'pending'
RETURNING j.id;

-- name: EdgesOf
-- Every edge from jobs :ids, with its dependency's state (NULL: deleted). The dependencies' rows
-- are locked FOR SHARE, and their states are the ones the locks were granted on: a retry must
-- not reopen an edge whose dependency's completion committed while it read.
WITH edges AS MATERIALIZED (
    SELECT job_id, dep_id, policy FROM {schema}.runnel_link_dep WHERE job_id = ANY (:ids::bigint[])
),
deps AS MATERIALIZED (
    SELECT j.id, j.state FROM {schema}.runnel_job j
    WHERE j.id IN (SELECT dep_id FROM edges)
    ORDER BY j.id
    FOR SHARE
)
SELECT e.job_id, e.dep_id, e.policy, d.state
FROM edges e LEFT JOIN deps d ON d.id = e.dep_id
ORDER BY e.job_id, e.dep_id;

-- name: EdgesReopen
UPDATE {schema}.runnel_link_dep d SET open = true
FROM unnest(:job_ids::bigint[], :dep_ids::bigint[]) AS x(job_id, dep_id)
WHERE d.job_id = x.job_id AND d.dep_id = x.dep_id;

-- name: WaitingSet
UPDATE {schema}.runnel_link l SET waiting = x.n
FROM unnest(:job_ids::bigint[], :waiting::integer[]) AS x(job_id, n)
WHERE l.job_id = x.job_id;

-- name: PendingMake
UPDATE {schema}.runnel_job SET state = 'pending', finalized_at = NULL WHERE id = ANY (:ids::bigint[]);

-- name: LinkedFinal
-- Of jobs :ids, written by the caller's transaction just before, those linked and final now, with
-- their states and finalized times.
SELECT j.id, j.state, j.finalized_at FROM {schema}.runnel_job j
WHERE j.id = ANY (:ids::bigint[]) AND j.state IN ('completed', 'cancelled', 'discarded')
  AND EXISTS (SELECT 1 FROM {schema}.runnel_link l WHERE l.job_id = j.id);

-- name: LinkedLock
-- Of jobs :ids, those linked, with their states, their rows locked in id order: read before a
-- retry or a delete changes them, the states they leave.
SELECT j.id, j.state FROM {schema}.runnel_job j
WHERE j.id = ANY (:ids::bigint[]) AND EXISTS (SELECT 1 FROM {schema}.runnel_link l WHERE l.job_id = j.id)
ORDER BY j.id
FOR UPDATE;

-- name: LinkGet
SELECT l.workflow_id, l.task, l.batch_id, l.sequence_key,
       ARRAY(SELECT d.dep_id FROM {schema}.runnel_link_dep d WHERE d.job_id = l.job_id ORDER BY d.dep_id),
       ARRAY(SELECT d.job_id FROM {schema}.runnel_link_dep d WHERE d.dep_id = l.job_id ORDER BY d.job_id)
FROM {schema}.runnel_link l WHERE l.job_id = :id;

-- name: WorkflowGet
-- The workflow and its tasks' count in each state ('deleted' for tasks whose job is gone), one
-- row per state (one row with a NULL state for a workflow without tasks).
SELECT w.id, w.name, w.created_at, c.state, c.n
FROM {schema}.runnel_workflow w
LEFT JOIN LATERAL (
    SELECT coalesce(j.state::text, 'deleted') AS state, count(*) AS n
    FROM {schema}.runnel_link l LEFT JOIN {schema}.runnel_job j ON j.id = l.job_id
    WHERE l.workflow_id = w.id
    GROUP BY 1) c ON true
WHERE w.id = :id;

-- name: WorkflowList
-- As WorkflowGet, for up to :limit workflows with ids below :before_id, newest first.
SELECT w.id, w.name, w.created_at, c.state, c.n
FROM (SELECT id, name, created_at FROM {schema}.runnel_workflow
      WHERE id < :before_id ORDER BY id DESC LIMIT :limit) w
LEFT JOIN LATERAL (
    SELECT coalesce(j.state::text, 'deleted') AS state, count(*) AS n
    FROM {schema}.runnel_link l LEFT JOIN {schema}.runnel_job j ON j.id = l.job_id
    WHERE l.workflow_id = w.id
    GROUP BY 1) c ON true
ORDER BY w.id DESC;

-- name: WorkflowTasks
-- The tasks of workflow :id in insert order, each with the names of the tasks it runs after and
-- its recorded output (JSON, NULL: none).
SELECT l.task, l.job_id, coalesce(j.kind, ''), j.state, l.policy, (j.metadata -> 'output')::text,
       ARRAY(SELECT dl.task
             FROM {schema}.runnel_link_dep d
             JOIN {schema}.runnel_link dl ON dl.job_id = d.dep_id AND dl.workflow_id = l.workflow_id
             WHERE d.job_id = l.job_id
             ORDER BY d.dep_id)
FROM {schema}.runnel_link l LEFT JOIN {schema}.runnel_job j ON j.id = l.job_id
WHERE l.workflow_id = :id
ORDER BY l.job_id;

-- name: BatchGet
SELECT id, name, created_at, total, completed, cancelled, discarded, deleted,
       success_job_id, complete_job_id, discard_job_id
FROM {schema}.runnel_batch WHERE id = :id;

-- name: BatchList
SELECT id, name, created_at, total, completed, cancelled, discarded, deleted,
       success_job_id, complete_job_id, discard_job_id
FROM {schema}.runnel_batch
WHERE id < :before_id
ORDER BY id DESC LIMIT :limit;

-- name: EdgesCleanOf
-- The cleaner's part, after JobDeleteFinalized took the link rows of jobs :ids and Links settled
-- what they still held: the edges from those jobs to the jobs they ran after.
DELETE FROM {schema}.runnel_link_dep WHERE job_id = ANY (:ids::bigint[]);

-- name: WorkflowLock
-- Before WorkflowCleanEmpty, as a statement of its own: waits for inserts adding tasks to the
-- workflows :ids (WorkflowExists), so that WorkflowCleanEmpty's snapshot sees their tasks; an
-- insert after it finds the workflow gone.
SELECT id FROM {schema}.runnel_workflow WHERE id = ANY (:ids::bigint[]) ORDER BY id FOR UPDATE;

-- name: WorkflowCleanEmpty
-- Deletes those of workflows :ids (locked) that have no task with a job left, with the link rows
-- and edges of tasks deleted by hand, which were kept to show as deleted.
WITH empty AS MATERIALIZED (
    SELECT w.id FROM {schema}.runnel_workflow w
    WHERE w.id = ANY (:ids::bigint[])
      AND NOT EXISTS (SELECT 1 FROM {schema}.runnel_link l JOIN {schema}.runnel_job j ON j.id = l.job_id
                      WHERE l.workflow_id = w.id)
),
gone AS (
    DELETE FROM {schema}.runnel_workflow WHERE id IN (SELECT id FROM empty)
),
orphans AS (
    DELETE FROM {schema}.runnel_link l WHERE l.workflow_id IN (SELECT id FROM empty) RETURNING l.job_id
)
DELETE FROM {schema}.runnel_link_dep d WHERE d.job_id IN (SELECT job_id FROM orphans);

-- name: BatchLock
-- Before BatchCleanEmpty, as a statement of its own: waits for inserts adding jobs to the batches
-- :ids (BatchAdd), as WorkflowLock does.
SELECT id FROM {schema}.runnel_batch WHERE id = ANY (:ids::bigint[]) ORDER BY id FOR UPDATE;

-- name: BatchCleanEmpty
-- Deletes those of batches :ids (locked) that have no job left, with the link rows of jobs deleted
-- by hand that belong to no workflow (WorkflowCleanEmpty takes the others).
WITH empty AS MATERIALIZED (
    SELECT b.id FROM {schema}.runnel_batch b
    WHERE b.id = ANY (:ids::bigint[])
      AND NOT EXISTS (SELECT 1 FROM {schema}.runnel_link l JOIN {schema}.runnel_job j ON j.id = l.job_id
                      WHERE l.batch_id = b.id)
),
gone AS (
    DELETE FROM {schema}.runnel_batch WHERE id IN (SELECT id FROM empty)
),
orphans AS (
    DELETE FROM {schema}.runnel_link l
    WHERE l.batch_id IN (SELECT id FROM empty) AND l.workflow_id IS NULL
    RETURNING l.job_id
)
DELETE FROM {schema}.runnel_link_dep d WHERE d.job_id IN (SELECT job_id FROM orphans);

-- name: SequenceCleanGone
-- Deletes sequences :keys whose last job is one of the jobs :ids just deleted: the next job
-- inserted into one waits for nothing, as it would wait for nothing after a deleted job. Matched
-- by id, not by the job's absence: an insert that moved the sequence on meanwhile (its row lock
-- held this delete up) leaves a last job this statement's snapshot cannot see yet.
DELETE FROM {schema}.runnel_sequence WHERE key = ANY (:keys::text[]) AND last_job_id = ANY (:ids::bigint[]);
