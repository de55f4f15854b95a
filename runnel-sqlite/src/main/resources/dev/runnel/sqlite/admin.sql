-- The SQLite driver's job administration statements: cancel, retry and delete by id, and the
-- poll for cancels requested of running jobs. Times are microseconds since the epoch.

-- name: JobCancelMany
-- Cancels jobs :ids (a JSON array): one not running becomes cancelled at once (final at :now, with
-- error :reason at :now_text); a running one gets cancel_requested_at :now (once), for its client to interrupt.
-- Final jobs are left alone. Returns each job changed and its state now.
UPDATE runnel_job
SET state = CASE WHEN state = 'running' THEN state ELSE 'cancelled' END,
    finalized_at = CASE WHEN state = 'running' THEN finalized_at ELSE :now END,
    cancel_requested_at = CASE WHEN state = 'running' THEN coalesce(cancel_requested_at, :now) ELSE cancel_requested_at END,
    errors = CASE WHEN state = 'running' THEN errors
                  ELSE json_insert(coalesce(errors, '[]'), '$[#]',
                                   json_object('attempt', attempt, 'at', :now_text, 'error', :reason, 'trace', '')) END
WHERE id IN (SELECT value FROM json_each(:ids)) AND state NOT IN ('completed', 'cancelled', 'discarded')
RETURNING id, state;

-- name: JobCancelRequested
-- Of this client's running jobs :ids (a JSON array), those whose cancel was requested.
SELECT id FROM runnel_job
WHERE id IN (SELECT value FROM json_each(:ids)) AND state = 'running' AND cancel_requested_at IS NOT NULL;

-- name: JobRetryMany
-- Jobs :ids (a JSON array) that are not running or pending become available at :now with their attempts kept;
-- one out of attempts gets one more. Returns the ids and queues. A unique job whose key another
-- job has taken since it left its unique states stays as it is (JobUniqueHolder says which).
UPDATE runnel_job AS j
SET state = 'available', scheduled_at = :now, finalized_at = NULL, cancel_requested_at = NULL,
    max_attempts = max(max_attempts, attempt + 1)
WHERE id IN (SELECT value FROM json_each(:ids)) AND state NOT IN ('running', 'pending')
  AND NOT EXISTS (
      SELECT 1 FROM runnel_job o
      WHERE o.unique_key = j.unique_key AND o.id <> j.id
        AND o.unique_key IS NOT NULL AND o.unique_states IS NOT NULL
            AND (o.unique_states >> CASE o.state WHEN 'scheduled' THEN 6 WHEN 'available' THEN 5 WHEN 'running' THEN 4
                 WHEN 'retryable' THEN 3 WHEN 'completed' THEN 2 WHEN 'cancelled' THEN 1 ELSE 0 END) & 1 = 1)
RETURNING id, queue;

-- name: JobUniqueHolder
-- The job, other than :id, that holds :id's unique key.
SELECT o.id FROM runnel_job j
JOIN runnel_job o ON o.unique_key = j.unique_key AND o.id <> j.id
WHERE j.id = :id AND o.unique_key IS NOT NULL AND o.unique_states IS NOT NULL
            AND (o.unique_states >> CASE o.state WHEN 'scheduled' THEN 6 WHEN 'available' THEN 5 WHEN 'running' THEN 4
                 WHEN 'retryable' THEN 3 WHEN 'completed' THEN 2 WHEN 'cancelled' THEN 1 ELSE 0 END) & 1 = 1;

-- name: JobDeleteMany
-- Deletes jobs :ids (a JSON array) that are not running; returns the ids deleted.
DELETE FROM runnel_job WHERE id IN (SELECT value FROM json_each(:ids)) AND state <> 'running' RETURNING id;
