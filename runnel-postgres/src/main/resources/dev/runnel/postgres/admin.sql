-- The Postgres driver's job administration statements: cancel, retry and delete by id, and the
-- poll for cancels requested of running jobs. {schema} is the driver's validated, quoted schema.

-- name: JobCancelMany
-- Cancels jobs :ids: one not running becomes cancelled at once (final at :now, with error :reason at :now_text);
-- a running one gets cancel_requested_at :now (once) and its client is told, on the insert channel
-- :channel with a control payload (a queue name can hold no control character), to interrupt it. Final
-- jobs are left alone. Returns each job changed and its state now.
WITH changed AS (
    UPDATE {schema}.runnel_job j
    SET state = CASE WHEN j.state = 'running' THEN j.state ELSE 'cancelled' END,
        finalized_at = CASE WHEN j.state = 'running' THEN j.finalized_at ELSE :now END,
        cancel_requested_at = CASE WHEN j.state = 'running' THEN coalesce(j.cancel_requested_at, :now)
                                   ELSE j.cancel_requested_at END,
        errors = CASE WHEN j.state = 'running' THEN j.errors
                      ELSE array_append(j.errors, jsonb_build_object('attempt', j.attempt, 'at', :now_text::text,
                                                                     'error', :reason::text, 'trace', '')) END
    WHERE j.id = ANY (:ids::bigint[]) AND j.state NOT IN ('completed', 'cancelled', 'discarded')
    RETURNING j.id, j.state
)
SELECT id, state FROM changed
WHERE (SELECT count(pg_notify(:channel, chr(1) || 'cancel'))
       FROM (SELECT 1 FROM changed WHERE state = 'running' LIMIT 1) AS any_running) >= 0;

-- name: JobCancelRequested
-- Of this client's running jobs :ids, those whose cancel was requested.
SELECT id FROM {schema}.runnel_job
WHERE id = ANY (:ids::bigint[]) AND state = 'running' AND cancel_requested_at IS NOT NULL;

-- name: JobRetryMany
-- Jobs :ids that are not running or pending become available at :now with their attempts kept; one out of
-- attempts gets one more, so that it can run. Wakes their queues on channel :channel. Returns the ids.
-- A unique job whose key another job has taken since it left its unique states stays as it is
-- (JobUniqueHolder says which): moving it would break the unique index.
WITH retried AS (
    UPDATE {schema}.runnel_job j
    SET state = 'available', scheduled_at = :now, finalized_at = NULL, cancel_requested_at = NULL,
        max_attempts = greatest(j.max_attempts, j.attempt + 1)
    WHERE j.id = ANY (:ids::bigint[]) AND j.state NOT IN ('running', 'pending')
      AND NOT EXISTS (
          SELECT 1 FROM {schema}.runnel_job o
          WHERE o.unique_key = j.unique_key AND o.id <> j.id
            AND o.unique_key IS NOT NULL AND o.unique_states IS NOT NULL
            AND {schema}.runnel_job_state_in_bitmask(o.unique_states, o.state))
    RETURNING j.id, j.queue
)
SELECT id FROM retried
WHERE (SELECT count(pg_notify(:channel, q.queue)) FROM (SELECT DISTINCT queue FROM retried) AS q) >= 0;

-- name: JobUniqueHolder
-- The job, other than :id, that holds :id's unique key.
SELECT o.id FROM {schema}.runnel_job j
JOIN {schema}.runnel_job o ON o.unique_key = j.unique_key AND o.id <> j.id
WHERE j.id = :id AND o.unique_key IS NOT NULL AND o.unique_states IS NOT NULL
  AND {schema}.runnel_job_state_in_bitmask(o.unique_states, o.state);

-- name: JobDeleteMany
-- Deletes jobs :ids that are not running; returns the ids deleted.
DELETE FROM {schema}.runnel_job WHERE id = ANY (:ids::bigint[]) AND state <> 'running' RETURNING id;

-- name: SearchIndexList
-- Which of the optional search indexes (SearchIndex) the job table has, by name, and whether each
-- is valid: a CREATE INDEX CONCURRENTLY that failed leaves an invalid index, which serves no query
-- but is still written by every insert.
SELECT c.relname, i.indisvalid
FROM pg_index i
JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = :schema AND c.relname IN ('runnel_job_kind', 'runnel_job_args');

-- name: SearchIndexKindCreate
-- A rare kind's jobs, newest first, without walking the ids: every job pays an entry at insert.
-- CONCURRENTLY, so inserts and claims go on while it builds (it cannot run in a transaction).
CREATE INDEX CONCURRENTLY IF NOT EXISTS runnel_job_kind ON {schema}.runnel_job (kind, id);

-- name: SearchIndexArgsCreate
-- Listings by a value in the args (args @> :args): a GIN index of every job's args.
CREATE INDEX CONCURRENTLY IF NOT EXISTS runnel_job_args ON {schema}.runnel_job USING gin (args jsonb_path_ops);

-- name: SearchIndexKindDrop
DROP INDEX CONCURRENTLY IF EXISTS {schema}.runnel_job_kind;

-- name: SearchIndexArgsDrop
DROP INDEX CONCURRENTLY IF EXISTS {schema}.runnel_job_args;
