-- The SQLite driver's statements for workflows, batches and sequences (Links in runnel-core holds
-- the logic). Every write runs under the writer lock, in the transaction that stores the outcome
-- or the insert. Lists of ids and pairs are JSON arrays; times are microseconds since the epoch.

-- name: WorkflowCreate
INSERT INTO runnel_workflow (name, created_at) VALUES (:name, :now) RETURNING id;

-- name: WorkflowExists
SELECT count(*) FROM runnel_workflow WHERE id = :id;

-- name: WorkflowTasksNamed
-- The tasks named :names (a JSON array) of workflow :workflow_id, with their jobs' states (NULL: deleted).
SELECT l.task, l.job_id, j.state
FROM runnel_link l LEFT JOIN runnel_job j ON j.id = l.job_id
WHERE l.workflow_id = :workflow_id AND l.task IN (SELECT value FROM json_each(:names));

-- name: BatchCreate
INSERT INTO runnel_batch (name, created_at, callbacks) VALUES (:name, :now, :callbacks) RETURNING id;

-- name: BatchAdd
UPDATE runnel_batch SET total = total + :jobs WHERE id = :id;

-- name: SequenceLast
SELECT last_job_id FROM runnel_sequence WHERE key = :key;

-- name: SequenceSet
INSERT INTO runnel_sequence (key, last_job_id) VALUES (:key, :job_id)
ON CONFLICT (key) DO UPDATE SET last_job_id = excluded.last_job_id;

-- name: JobState
SELECT state FROM runnel_job WHERE id = :id;

-- name: LinkInsertMany
-- :links: [[job_id, workflow_id or null, task, batch_id or null, sequence_key, policy, waiting], ...]
INSERT INTO runnel_link (job_id, workflow_id, task, batch_id, sequence_key, policy, waiting)
SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6
FROM json_each(:links);

-- name: EdgeInsertMany
-- :edges: [[job_id, dep_id, policy], ...], each open.
INSERT INTO runnel_link_dep (job_id, dep_id, policy)
SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(:edges);

-- name: BatchCount
-- Adds :sign times the outcomes :finished ([[job_id, outcome], ...]) to their batches' counts;
-- returns each batch changed, as it is now.
UPDATE runnel_batch
SET completed = runnel_batch.completed + :sign * x.n_completed,
    cancelled = runnel_batch.cancelled + :sign * x.n_cancelled,
    discarded = runnel_batch.discarded + :sign * x.n_discarded,
    deleted = runnel_batch.deleted + :sign * x.n_deleted
FROM (SELECT l.batch_id AS batch_id,
             sum(f.value ->> 1 = 'completed') AS n_completed,
             sum(f.value ->> 1 = 'cancelled') AS n_cancelled,
             sum(f.value ->> 1 = 'discarded') AS n_discarded,
             sum(f.value ->> 1 = 'deleted') AS n_deleted
      FROM json_each(:finished) f JOIN runnel_link l ON l.job_id = f.value ->> 0
      WHERE l.batch_id IS NOT NULL
      GROUP BY l.batch_id) AS x
WHERE runnel_batch.id = x.batch_id
RETURNING runnel_batch.id, total, completed, cancelled, discarded, deleted, callbacks,
          success_job_id IS NOT NULL, complete_job_id IS NOT NULL, discard_job_id IS NOT NULL;

-- name: BatchFired
-- Records callback :callback of batch :id as inserted as job :job_id.
UPDATE runnel_batch
SET success_job_id = CASE WHEN :callback = 'success' THEN :job_id ELSE success_job_id END,
    complete_job_id = CASE WHEN :callback = 'complete' THEN :job_id ELSE complete_job_id END,
    discard_job_id = CASE WHEN :callback = 'discard' THEN :job_id ELSE discard_job_id END
WHERE id = :id;

-- name: EdgesOpen
-- The open edges from jobs :ids.
SELECT job_id, dep_id, policy FROM runnel_link_dep
WHERE dep_id IN (SELECT value FROM json_each(:ids)) AND open = 1;

-- name: EdgesClose
-- :edges: [[job_id, dep_id], ...]
UPDATE runnel_link_dep SET open = 0
WHERE (job_id, dep_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(:edges));

-- name: WaitingDecrement
-- :by: [[job_id, n], ...]; returns each job's open edges left.
UPDATE runnel_link SET waiting = waiting - x.n
FROM (SELECT value ->> 0 AS job_id, value ->> 1 AS n FROM json_each(:by)) AS x
WHERE runnel_link.job_id = x.job_id
RETURNING runnel_link.job_id, runnel_link.waiting;

-- name: PendingRelease
-- Jobs :ids still pending become available, or scheduled if their time is after :now.
UPDATE runnel_job SET state = CASE WHEN scheduled_at > :now THEN 'scheduled' ELSE 'available' END
WHERE id IN (SELECT value FROM json_each(:ids)) AND state = 'pending'
RETURNING id, queue, state;

-- name: PendingCancel
-- :cancels: [[job_id, error], ...]: those still pending are cancelled at :now with the error appended.
UPDATE runnel_job
SET state = 'cancelled', finalized_at = :now,
    errors = json_insert(coalesce(errors, '[]'), '$[#]', json(x.error))
FROM (SELECT value ->> 0 AS id, value ->> 1 AS error FROM json_each(:cancels)) AS x
WHERE runnel_job.id = x.id AND runnel_job.state = 'pending'
RETURNING runnel_job.id;

-- name: EdgesOf
-- Every edge from jobs :ids, with its dependency's state (NULL: deleted).
SELECT d.job_id, d.dep_id, d.policy, j.state
FROM runnel_link_dep d LEFT JOIN runnel_job j ON j.id = d.dep_id
WHERE d.job_id IN (SELECT value FROM json_each(:ids));

-- name: EdgesReopen
-- :edges: [[job_id, dep_id], ...]
UPDATE runnel_link_dep SET open = 1
WHERE (job_id, dep_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(:edges));

-- name: WaitingSet
-- :waiting: [[job_id, n], ...]
UPDATE runnel_link SET waiting = x.n
FROM (SELECT value ->> 0 AS job_id, value ->> 1 AS n FROM json_each(:waiting)) AS x
WHERE runnel_link.job_id = x.job_id;

-- name: PendingMake
UPDATE runnel_job SET state = 'pending', finalized_at = NULL WHERE id IN (SELECT value FROM json_each(:ids));

-- name: LinkedAmong
-- Of jobs :ids, those that are linked, with their states now.
SELECT l.job_id, j.state
FROM runnel_link l JOIN runnel_job j ON j.id = l.job_id
WHERE l.job_id IN (SELECT value FROM json_each(:ids));

-- name: LinkGet
SELECT workflow_id, task, batch_id, sequence_key FROM runnel_link WHERE job_id = :id;

-- name: LinkWaitsFor
SELECT dep_id FROM runnel_link_dep WHERE job_id = :id ORDER BY dep_id;

-- name: LinkWaitedOnBy
SELECT job_id FROM runnel_link_dep WHERE dep_id = :id ORDER BY job_id;

-- name: WorkflowGet
SELECT id, name, created_at FROM runnel_workflow WHERE id = :id;

-- name: WorkflowList
SELECT id, name, created_at FROM runnel_workflow
WHERE :before_id = 0 OR id < :before_id
ORDER BY id DESC LIMIT :limit;

-- name: WorkflowCounts
-- Tasks of workflows :ids by state ('deleted' for tasks whose job is gone).
SELECT l.workflow_id, coalesce(j.state, 'deleted'), count(*)
FROM runnel_link l LEFT JOIN runnel_job j ON j.id = l.job_id
WHERE l.workflow_id IN (SELECT value FROM json_each(:ids))
GROUP BY l.workflow_id, coalesce(j.state, 'deleted');

-- name: WorkflowTasks
SELECT l.task, l.job_id, coalesce(j.kind, ''), j.state, l.policy, j.metadata -> '$.output'
FROM runnel_link l LEFT JOIN runnel_job j ON j.id = l.job_id
WHERE l.workflow_id = :id
ORDER BY l.job_id;

-- name: WorkflowTaskDeps
-- Each task of workflow :id and the name of each task it runs after.
SELECT d.job_id, dl.task
FROM runnel_link l
JOIN runnel_link_dep d ON d.job_id = l.job_id
JOIN runnel_link dl ON dl.job_id = d.dep_id AND dl.workflow_id = l.workflow_id
WHERE l.workflow_id = :id
ORDER BY d.job_id, d.dep_id;

-- name: BatchGet
SELECT id, name, created_at, total, completed, cancelled, discarded, deleted,
       success_job_id, complete_job_id, discard_job_id
FROM runnel_batch WHERE id = :id;

-- name: BatchList
SELECT id, name, created_at, total, completed, cancelled, discarded, deleted,
       success_job_id, complete_job_id, discard_job_id
FROM runnel_batch
WHERE :before_id = 0 OR id < :before_id
ORDER BY id DESC LIMIT :limit;

-- name: LinkCleanOrphans
-- The cleaner's part: link rows of jobs with ids up to :max_id that no longer exist, at most :limit,
-- deleted and returned (with their workflow, batch and sequence, to clean those that are left empty).
DELETE FROM runnel_link
WHERE job_id IN (
    SELECT l.job_id FROM runnel_link l
    WHERE l.job_id <= :max_id AND NOT EXISTS (SELECT 1 FROM runnel_job j WHERE j.id = l.job_id)
    ORDER BY l.job_id
    LIMIT :limit)
RETURNING job_id, workflow_id, batch_id, sequence_key;

-- name: EdgesCleanOf
DELETE FROM runnel_link_dep WHERE job_id IN (SELECT value FROM json_each(:ids));

-- name: WorkflowCleanEmpty
DELETE FROM runnel_workflow
WHERE id IN (SELECT value FROM json_each(:ids))
  AND NOT EXISTS (SELECT 1 FROM runnel_link l WHERE l.workflow_id = runnel_workflow.id);

-- name: BatchCleanEmpty
DELETE FROM runnel_batch
WHERE id IN (SELECT value FROM json_each(:ids))
  AND NOT EXISTS (SELECT 1 FROM runnel_link l WHERE l.batch_id = runnel_batch.id);

-- name: SequenceCleanGone
DELETE FROM runnel_sequence
WHERE key IN (SELECT value FROM json_each(:keys))
  AND NOT EXISTS (SELECT 1 FROM runnel_job j WHERE j.id = runnel_sequence.last_job_id);
