-- The Postgres driver's listings and counts for people: the CLI, the dashboard, bulk changes by
-- query. {schema} is the driver's validated, quoted schema. Every listing returns the columns in
-- the order PostgresRows decodes.
--
-- A listing is one fixed statement whose filters switch off when their parameter is empty or null
-- ("cardinality(:queues) = 0 OR ..."). PostgresQueries runs it as an unnamed statement every time, so
-- the server plans each execution with its values: the switched-off filters fold away and the
-- planner sees the real ones, and picks per query between walking the primary key (a common
-- value: the page fills within a few thousand rows) and an index on the filtered column with a
-- sort of its matches (a rare value). A generic plan, which pgjdbc and Postgres switch to after
-- five executions of a named statement, cannot see which filters are on and would walk the
-- primary key for every filter: measured in docs/benchmarks.md.
--
-- Parameters of both listings: :from_id and :to_id the lowest and highest id (the id range and
-- the cursor merged, JobListScan); :states an empty array for all, bound untyped, so that the
-- server reads them as the enum array itself (bound as text[], the cast to the enum, a stable
-- function, is not folded at planning, and neither the empty test nor the partial state index's
-- predicate can be decided, which left every state listing walking the primary key); :tags every
-- one; :args, :created_from and :created_before null for none. The tags filter repeats the
-- partial tags index's predicate so that the planner may use that index.

-- name: JobListAscending
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors::text[], metadata, tags
FROM {schema}.runnel_job
WHERE id BETWEEN :from_id AND :to_id
  AND (cardinality(:states::{schema}.runnel_job_state[]) = 0 OR state = ANY (:states::{schema}.runnel_job_state[]))
  AND (cardinality(:queues::text[]) = 0 OR queue = ANY (:queues::text[]))
  AND (cardinality(:kinds::text[]) = 0 OR kind = ANY (:kinds::text[]))
  AND (cardinality(:tags::text[]) = 0 OR (tags @> :tags::text[] AND tags <> '{}'))
  AND (:args::jsonb IS NULL OR args @> :args::jsonb)
  AND (:created_from::timestamptz IS NULL OR created_at >= :created_from::timestamptz)
  AND (:created_before::timestamptz IS NULL OR created_at < :created_before::timestamptz)
ORDER BY id
LIMIT :limit;

-- name: JobListDescending
-- JobListAscending walking the other way.
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors::text[], metadata, tags
FROM {schema}.runnel_job
WHERE id BETWEEN :from_id AND :to_id
  AND (cardinality(:states::{schema}.runnel_job_state[]) = 0 OR state = ANY (:states::{schema}.runnel_job_state[]))
  AND (cardinality(:queues::text[]) = 0 OR queue = ANY (:queues::text[]))
  AND (cardinality(:kinds::text[]) = 0 OR kind = ANY (:kinds::text[]))
  AND (cardinality(:tags::text[]) = 0 OR (tags @> :tags::text[] AND tags <> '{}'))
  AND (:args::jsonb IS NULL OR args @> :args::jsonb)
  AND (:created_from::timestamptz IS NULL OR created_at >= :created_from::timestamptz)
  AND (:created_before::timestamptz IS NULL OR created_at < :created_before::timestamptz)
ORDER BY id DESC
LIMIT :limit;

-- name: JobLastId
-- The highest id, from the end of the primary key (NULL, read as 0, when the table is empty).
SELECT max(id) FROM {schema}.runnel_job;

-- name: JobFirstAtOrAfter
-- The job with the lowest id at or after :id, through the primary key: how CreationIds bisects the
-- ids for a listing's creation-time window.
SELECT id, created_at FROM {schema}.runnel_job WHERE id >= :id ORDER BY id LIMIT 1;

-- name: JobCountExact
-- Every job counted: a scan of the whole table. For audits and small tables.
SELECT queue, state, count(*) FROM {schema}.runnel_job GROUP BY queue, state ORDER BY queue, state;

-- name: JobCountNotCompleted
-- Exact counts of every state but completed, each through an index that holds only its jobs:
-- available ones in the fetch index (queue first), running ones in the running index, the others
-- in the state index (its queue included); the fetch and state indexes answer without the table
-- where its pages are all visible. The state of the first two branches is written as a constant,
-- not read, or the index could not answer alone: reading 100,000 available jobs from the table
-- took 270 ms, from the fetch index alone 14 ms.
SELECT queue, 'available'::{schema}.runnel_job_state, count(*) FROM {schema}.runnel_job WHERE state = 'available'
GROUP BY queue
UNION ALL
SELECT queue, 'running'::{schema}.runnel_job_state, count(*) FROM {schema}.runnel_job WHERE state = 'running'
GROUP BY queue
UNION ALL
SELECT queue, state, count(*) FROM {schema}.runnel_job
WHERE state IN ('pending', 'scheduled', 'retryable', 'cancelled', 'discarded')
GROUP BY queue, state;

-- name: JobCountRunning
-- The running jobs by queue, from their index: how many run at most the clients' concurrency.
SELECT queue, state, count(*) FROM {schema}.runnel_job WHERE state = 'running' GROUP BY queue, state;

-- name: JobTablePages
-- The job table's size in pages now (not as of the last ANALYZE), to size the sample of completed jobs.
SELECT pg_relation_size('{schema}.runnel_job') / current_setting('block_size')::bigint;

-- name: JobCountSampled
-- Jobs by queue and state in a sample of :percent percent of the table's pages (100: all of them,
-- exact), to be scaled up by the caller. REPEATABLE: the same pages each time (those the table
-- has then), so that they stay in the buffer cache and an estimate read every few seconds does not
-- jitter between readings: on 10 million jobs 43 ms a reading instead of 91 to 110 ms.
SELECT queue, state, count(*) FROM {schema}.runnel_job TABLESAMPLE SYSTEM (:percent) REPEATABLE (0)
GROUP BY queue, state;

-- name: JobCountSerial
-- For the fast counts' transaction: no parallel workers. Each count reads 10,000s of index
-- entries or a few thousand pages, which one backend does in less time than it takes to start
-- workers and gather from them (on 10 million jobs, 60 ms against 94 ms for the states' counts).
SET LOCAL max_parallel_workers_per_gather = 0;

-- name: JobCountTimeout
-- For the exact counts in the fast counts' transaction: give up past :timeout (estimates stand in).
SELECT set_config('statement_timeout', :timeout, true);
