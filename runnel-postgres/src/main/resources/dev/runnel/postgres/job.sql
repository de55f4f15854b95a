-- The Postgres driver's job statements. {schema} is the driver's validated, quoted schema.
-- Every statement that returns jobs returns the columns in the order PostgresRows decodes.
-- Times come from the client's clock: as bound timestamptz values, or, in batches, as bigint
-- microseconds since the epoch, turned into timestamptz exactly: whole seconds and the
-- microseconds left over are added apart (timestamptz 'epoch' + n / 1000000 * interval '1 second'
-- + n % 1000000 * interval '1 microsecond'), since an interval multiplied by a number goes through
-- a double, which holds the microseconds since the epoch exactly only until the year 2255, and
-- to_timestamp(n / 1e6) does not even that.

-- name: JobInsertMany
-- The whole batch in one statement. Ids are drawn in input order inside a materialised CTE (so
-- each row draws exactly one) and returned from it by ordinality, not from RETURNING, whose order
-- SQL does not promise. The WHERE sends one notification per queue that received available jobs,
-- not one per job; the subquery is uncorrelated, so it runs once. On a caller's connection the
-- notifications go out only if the caller commits. Times are in microseconds; each job's tags
-- are one JSON array.
WITH input AS MATERIALIZED (
    SELECT nextval('{schema}.runnel_job_id_seq') AS id, x.*
    FROM unnest(:kinds::text[], :args::text[], :queues::text[], :priorities::smallint[], :states::text[],
                :created_at::bigint[], :scheduled_at::bigint[],
                :max_attempts::integer[], :tags::text[], :metadata::text[])
         WITH ORDINALITY AS x(kind, args, queue, priority, state, created_at, scheduled_at, max_attempts,
                              tags, metadata, ord)
),
inserted AS (
    INSERT INTO {schema}.runnel_job
        (id, kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata)
    SELECT id, kind, args::jsonb, queue, priority, state::{schema}.runnel_job_state,
           timestamptz 'epoch' + created_at / 1000000 * interval '1 second' + created_at % 1000000 * interval '1 microsecond',
           timestamptz 'epoch' + scheduled_at / 1000000 * interval '1 second' + scheduled_at % 1000000 * interval '1 microsecond',
           max_attempts, ARRAY(SELECT jsonb_array_elements_text(tags::jsonb)), metadata::jsonb
    FROM input
)
SELECT id FROM input
WHERE (SELECT count(pg_notify(:channel, q.queue))
       FROM (SELECT DISTINCT queue FROM input WHERE state = 'available') AS q) >= 0
ORDER BY ord;

-- name: JobInsertManyUnique
-- JobInsertMany for a batch with unique jobs (their keys and state masks, NULL for the rest),
-- so that batches without any keep the plain statement. A job whose key is held goes to
-- ON CONFLICT, whose DO UPDATE (a no-op write, as River does) makes RETURNING give the holder's
-- row: the holder is found in the same statement that found the conflict, not by a later read
-- that it could have left by then. The batch never holds one key twice (the Inserter sees to
-- it): DO UPDATE cannot touch one row twice in a statement. Returns, in input order, each job's
-- id (its own, or its holder's) and whether it was a duplicate.
WITH input AS MATERIALIZED (
    SELECT nextval('{schema}.runnel_job_id_seq') AS id, x.*
    FROM unnest(:kinds::text[], :args::text[], :queues::text[], :priorities::smallint[], :states::text[],
                :created_at::bigint[], :scheduled_at::bigint[],
                :max_attempts::integer[], :tags::text[], :metadata::text[], :unique_keys::bytea[],
                :unique_states::integer[])
         WITH ORDINALITY AS x(kind, args, queue, priority, state, created_at, scheduled_at, max_attempts,
                              tags, metadata, unique_key, unique_states, ord)
),
inserted AS (
    INSERT INTO {schema}.runnel_job AS j
        (id, kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata,
         unique_key, unique_states)
    SELECT id, kind, args::jsonb, queue, priority, state::{schema}.runnel_job_state,
           timestamptz 'epoch' + created_at / 1000000 * interval '1 second' + created_at % 1000000 * interval '1 microsecond',
           timestamptz 'epoch' + scheduled_at / 1000000 * interval '1 second' + scheduled_at % 1000000 * interval '1 microsecond',
           max_attempts, ARRAY(SELECT jsonb_array_elements_text(tags::jsonb)), metadata::jsonb,
           unique_key, unique_states::bit(8)
    FROM input
    ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND unique_states IS NOT NULL
                                  AND {schema}.runnel_job_state_in_bitmask(unique_states, state)
    DO UPDATE SET kind = j.kind
    RETURNING j.id, j.unique_key
)
SELECT coalesce(mine.id, holder.id), mine.id IS NULL
FROM input
LEFT JOIN inserted mine ON mine.id = input.id
LEFT JOIN inserted holder ON holder.unique_key = input.unique_key AND holder.id <> input.id
WHERE (SELECT count(pg_notify(:channel, q.queue))
       FROM (SELECT DISTINCT queue FROM input WHERE state = 'available') AS q) >= 0
ORDER BY input.ord;

-- name: GenericPlan
-- Sent before the claims (JobClaim, JobClaimAtMostOnce, JobClaimKeyed) and the outcome writes
-- (JobCompleteMany, JobCompleteDeleteMany, JobSetStateMany), in their round trip and transaction
-- (Sql.after), on a connection that prepares its statements on the server: the statement that
-- follows uses Postgres's generic plan for it, made once per connection, rather than a plan made
-- again for each run's values. Behind PgBouncer, where every run is planned anyway, it is not sent.
-- Left to choose, Postgres planned a claim again each time once its queue held more than a few
-- thousand waiting jobs (the generic plan's cost assumes that LIMIT :max takes a tenth of what the
-- scan could return), and an outcome write of a few jobs each time (a plan for the batch's actual
-- length looks cheaper than the generic plan's guess of ten): 0.2 to 0.3 ms of planning each,
-- where running a claim of 100 jobs takes 0.5 to 0.7 ms and a completion of one job 0.13 ms; the
-- keyed claim, every time, 1.7 ms of planning for 0.4 ms of running on a small table.
-- The generic plans are the plans those runs made (the fetch index in order and the locked
-- ctids; each job of a batch by its primary key; the keyed fetch index once per key).
-- It also turns JIT compilation off for the transaction. Postgres decides at planning whether to
-- compile a plan, from its estimated cost, and compiles it again at every run; the keyed claim's
-- generic plan, where a few keys hold many jobs, is estimated at a million (LIMIT :key_limit is
-- guessed at a tenth of a key's jobs), past jit_above_cost, and compiling took 400 to 700 ms of
-- each run where running it takes under 1 ms. None of these statements gains from JIT.
-- JobClaimLimited, whose limit is a subquery either way, keeps its generic plan without this; its
-- transaction's JobClaimLimitLock turns JIT off.
-- docs/benchmarks.md gives what it saved.
SELECT set_config('plan_cache_mode', 'force_generic_plan', true), set_config('jit', 'off', true);

-- name: JobClaim
-- One statement claims a batch and returns it. The CTE, not WHERE id IN (SELECT ... LIMIT n):
-- Postgres may run an IN sub-select more than once and lock more than n rows (bug #15715).
-- The locked rows come back as one array of their ctids, evaluated once, and the update reads
-- each row at its ctid (a TID scan) rather than finding it again through the primary key: the
-- claim touched 15% fewer buffers, and Postgres spent 7% less CPU a job on the drain.
-- A row this statement holds locked keeps its ctid until the commit. Where the lock followed the
-- row's update chain to a version committed after this statement's snapshot, the update does not
-- see that version and leaves the job as it is: a claim may take fewer jobs, never one twice.
-- Joined as a table (FROM locked), a batch of 1,000 on a 50,000-row table was planned as a hash
-- join over a sequential scan, 13.4 ms instead of 4.8 ms.
-- The state stays a literal so that prepared plans match the partial fetch index.
-- The scan starts after a position (priority, scheduled_at, id) from ClaimCursor, which skips the
-- entries of jobs claimed since the last vacuum; (0, epoch, 0) is the start. Only when the jobs
-- ahead of the position do not fill the batch does the second branch run (Append pulls it only
-- then; the plan shows it "never executed" otherwise) and take jobs behind the position: one
-- statement, so a claim can never commit one part and lose the other. Each branch locks in its
-- own subquery, as FOR UPDATE cannot apply to a UNION. RETURNING gives no order: the driver sorts.
-- A paused queue claims nothing: its runnel_queue row is read once per claim (an InitPlan gating
-- the scan), not per job. Nor does a queue with a global or rate limit, which only
-- JobClaimLimited may claim from: a client that has not yet heard of a new limit takes nothing
-- until it has. It returns PostgresRows.Claimed's columns: the queue, state, attempted_at and
-- finalized_at are this statement's own, so not read back. Empty errors, tags and metadata come
-- back as NULL, which the driver reads as empty without building an array or a string; so does
-- attempted_by when it holds only this client (a job's first claim: JobClaimParams.claimedRow
-- reads it as such). Its commit
-- does not wait for the WAL flush (synchronous_commit off for this transaction alone): a crash may
-- undo the claim, which leaves the job available at its old attempt, as at least once allows; a
-- completion's commit waits, and flushes every claim written before it (PostgresCrashTest). The
-- median claim at 50 jobs a second took 0.6 to 1.4 ms where it took 0.8 to 2.3, its p99 1.4 to 3.3
-- where 3.0 to 5.6.
WITH locked AS MATERIALIZED (
    SELECT ctid FROM (
        SELECT ctid FROM (
            SELECT ctid FROM {schema}.runnel_job
            WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
              AND (priority, scheduled_at, id) > (:from_priority, :from_scheduled_at, :from_id)
              AND NOT EXISTS (SELECT 1 FROM {schema}.runnel_queue q WHERE q.name = :queue
                              AND (q.paused_at IS NOT NULL OR q.global_limit IS NOT NULL OR q.rate_limit IS NOT NULL
                                   OR q.key_limit IS NOT NULL))
            ORDER BY priority, scheduled_at, id
            LIMIT :max
            FOR UPDATE SKIP LOCKED) AS ahead
        UNION ALL
        SELECT ctid FROM (
            SELECT ctid FROM {schema}.runnel_job
            WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
              AND (priority, scheduled_at, id) <= (:from_priority, :from_scheduled_at, :from_id)
              AND NOT EXISTS (SELECT 1 FROM {schema}.runnel_queue q WHERE q.name = :queue
                              AND (q.paused_at IS NOT NULL OR q.global_limit IS NOT NULL OR q.rate_limit IS NOT NULL
                                   OR q.key_limit IS NOT NULL))
            ORDER BY priority, scheduled_at, id
            LIMIT :max
            FOR UPDATE SKIP LOCKED) AS behind
    ) AS both_sides
    LIMIT :max
)
UPDATE {schema}.runnel_job j
SET state = 'running',
    attempt = j.attempt + 1,
    attempted_at = :now,
    -- The last 100 clients at most (JobClaimParams.MAX_ATTEMPTED_BY), as River keeps: a job
    -- snoozed thousands of times must not grow without bound.
    attempted_by = array_append(j.attempted_by[greatest(cardinality(j.attempted_by) - 98, 1):], :client_id)
WHERE j.ctid = ANY (ARRAY(SELECT ctid FROM locked))
  AND (SELECT set_config('synchronous_commit', 'off', true)) = 'off'
RETURNING j.id, j.kind, j.args, j.priority, j.attempt, j.max_attempts, nullif(j.attempted_by, ARRAY[:client_id]::text[]), j.created_at,
          j.scheduled_at, nullif(j.errors, '{}')::text[], nullif(j.metadata, '{}'), nullif(j.tags, '{}');

-- name: JobClaimLimitLock
-- The first statement of a claim under a global limit, in its own transaction with
-- JobClaimLimited: claims of the queue take turns on its row, so that each counts the running
-- jobs after the one before has committed. (Locked inside the claim itself, the count would come
-- from the snapshot the statement began with, before the lock was granted, and two claims could
-- both fill the same free slots.) It returns the rate limit and the start times kept for it, from
-- which the caller works out how many may start now (QueueLimits). It turns JIT compilation off
-- for the transaction (a one-time filter, run whether or not the row exists), as GenericPlan does
-- for the other claims, without a statement of its own: JobClaimLimited's generic plan is
-- estimated by the queue's backlog, at 10 million waiting jobs past jit_above_cost (127,000), and
-- each claim was then compiled, 15 to 145 ms against 0.3.
SELECT rate_limit, rate_period_us, rate_starts, key_limit, key_rate_limit, key_rate_period_us
FROM {schema}.runnel_queue WHERE name = :queue AND (SELECT set_config('jit', 'off', true)) = 'off' FOR UPDATE;

-- name: QueueRateStarted
-- The start times a rate-limited queue keeps (microseconds, oldest first), after a claim under
-- its lock started jobs.
UPDATE {schema}.runnel_queue SET rate_starts = :starts WHERE name = :queue;

-- name: JobClaimLimited
-- A claim under the queue's global limit: at most the batch size, and no more than the limit
-- less the queue's jobs running under it (counted through the runnel_job_limited index, which
-- holds only those). The jobs taken are marked (limit_key) so that the next claim counts them. No
-- claim position: a limited queue takes few jobs at a time. A queue whose limit was lifted
-- meanwhile is claimed up to the batch size.
WITH room AS MATERIALIZED (
    SELECT greatest(0, least(:max, coalesce(q.global_limit - (
               SELECT count(*) FROM {schema}.runnel_job r
               WHERE r.state = 'running' AND r.limit_key IS NOT NULL AND r.queue = q.name), :max))) AS n
    FROM {schema}.runnel_queue q
    WHERE q.name = :queue AND q.paused_at IS NULL
),
locked AS MATERIALIZED (
    SELECT id FROM {schema}.runnel_job
    WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
    ORDER BY priority, scheduled_at, id
    LIMIT (SELECT coalesce(max(n), 0) FROM room)
    FOR UPDATE SKIP LOCKED
)
UPDATE {schema}.runnel_job j
SET state = 'running',
    attempt = j.attempt + 1,
    attempted_at = :now,
    attempted_by = array_append(j.attempted_by[greatest(cardinality(j.attempted_by) - 98, 1):], :client_id),
    limit_key = ''
WHERE j.id = ANY (ARRAY(SELECT id FROM locked))
RETURNING j.id, j.kind, j.args, j.priority, j.attempt, j.max_attempts, nullif(j.attempted_by, ARRAY[:client_id]::text[]), j.created_at,
          j.scheduled_at, nullif(j.errors, '{}')::text[], nullif(j.metadata, '{}'), nullif(j.tags, '{}');

-- name: JobClaimKeyed
-- A claim under the queue's per-key limit (and its global limit, if any), after JobClaimLimitLock
-- in the same transaction. The keys take turns: every key's first job, then every key's second,
-- each turn by priority and time, so a key with a million jobs waiting does not hold up the
-- others. A key's running jobs count as turns it has had, so that claims of one free slot at a
-- time (jobs finishing one by one) take turns too, not the oldest key's job every time. A key of
-- weight w (key_weights) takes w jobs a turn. Under a rate per key, a key also takes no more than
-- its rate (:key_rate_jobs, or a number no key reaches) less its starts since the rate's window
-- began (:key_rate_since, microseconds; runnel_key_rate).
-- heads: each key's first due job, one index probe a key (a skip scan of runnel_job_fetch_keyed
-- that reads the job with the key). open: the keys that may start a job now, with how many
-- (turns); without a rate per key (:key_rate_jobs is Integer.MAX_VALUE, LimitedClaim.Keyed) no
-- key's starts are read (a one-time filter). bound: the round of the last head the claim could
-- take were it to take heads alone. offered: the heads, and a key's later jobs only where its
-- second turn comes by that round; with :max under the number of keys that is seldom, so most
-- claims read one index entry a key. Against offering every key's jobs up to its limit, a claim
-- of 30 over 1,000 keys read 4,200 buffers instead of 7,300 and took 14 against 19.5 ms; the picks
-- are the same (compared over 100 random tables, limits, weights and rates).
WITH RECURSIVE heads AS (
    (SELECT limit_key, priority, scheduled_at, id FROM {schema}.runnel_job
     WHERE state = 'available' AND limit_key IS NOT NULL AND queue = :queue AND scheduled_at <= :now
     ORDER BY limit_key, priority, scheduled_at, id LIMIT 1)
    UNION ALL
    SELECT h.limit_key, h.priority, h.scheduled_at, h.id
    FROM heads k CROSS JOIN LATERAL (
        SELECT j.limit_key, j.priority, j.scheduled_at, j.id FROM {schema}.runnel_job j
        WHERE j.state = 'available' AND j.limit_key IS NOT NULL AND j.queue = :queue AND j.limit_key > k.limit_key
          AND j.scheduled_at <= :now
        ORDER BY j.limit_key, j.priority, j.scheduled_at, j.id LIMIT 1) h
),
running AS MATERIALIZED (
    SELECT limit_key, count(*) AS n FROM {schema}.runnel_job
    WHERE state = 'running' AND limit_key IS NOT NULL AND queue = :queue
    GROUP BY limit_key
),
room AS MATERIALIZED (
    SELECT greatest(0, least(:max, coalesce(q.global_limit - (SELECT coalesce(sum(n), 0) FROM running), :max))) AS n
    FROM {schema}.runnel_queue q WHERE q.name = :queue AND q.paused_at IS NULL
),
open AS MATERIALIZED (
    SELECT h.*, ceil((h.busy + 1)::numeric / h.weight) AS round FROM (
        SELECT k.limit_key, k.priority, k.scheduled_at, k.id, coalesce(r.n, 0) AS busy,
               greatest(1, coalesce((w.key_weights ->> k.limit_key)::integer, 1)) AS weight,
               least(:key_limit - coalesce(r.n, 0),
                     :key_rate_jobs - (SELECT count(*) FROM {schema}.runnel_key_rate kr, unnest(kr.starts) AS s(t)
                                       WHERE :key_rate_jobs < 2147483647 AND kr.queue = :queue
                                         AND kr.key = k.limit_key AND s.t > :key_rate_since)) AS turns
        FROM heads k
        LEFT JOIN running r ON r.limit_key = k.limit_key
        CROSS JOIN (SELECT key_weights FROM {schema}.runnel_queue WHERE name = :queue) w) h
    WHERE turns >= 1
),
bound AS MATERIALIZED (
    SELECT round FROM open
    ORDER BY round, priority, scheduled_at, id
    OFFSET greatest(0, (SELECT coalesce(max(n), 0) FROM room) - 1) LIMIT 1
),
offered AS MATERIALIZED (
    SELECT o.id, o.priority, o.scheduled_at, o.round FROM open o
    UNION ALL
    SELECT c.id, c.priority, c.scheduled_at, ceil((o.busy + c.turn)::numeric / o.weight)
    FROM open o CROSS JOIN LATERAL (
        SELECT j.id, j.priority, j.scheduled_at, 1 + row_number() OVER (ORDER BY j.priority, j.scheduled_at, j.id) AS turn
        FROM {schema}.runnel_job j
        WHERE j.state = 'available' AND j.queue = :queue AND j.limit_key = o.limit_key AND j.scheduled_at <= :now
          AND (j.priority, j.scheduled_at, j.id) > (o.priority, o.scheduled_at, o.id)
        ORDER BY j.priority, j.scheduled_at, j.id
        LIMIT o.turns - 1) c
    WHERE o.turns > 1
      AND (NOT EXISTS (SELECT 1 FROM bound) OR ceil((o.busy + 2)::numeric / o.weight) <= (SELECT round FROM bound))
),
picked AS MATERIALIZED (
    SELECT id FROM offered
    ORDER BY round, priority, scheduled_at, id
    LIMIT (SELECT coalesce(max(n), 0) FROM room)
),
locked AS MATERIALIZED (
    SELECT id FROM {schema}.runnel_job
    WHERE id = ANY (ARRAY(SELECT id FROM picked)) AND state = 'available'
    FOR UPDATE SKIP LOCKED
)
UPDATE {schema}.runnel_job j
SET state = 'running',
    attempt = j.attempt + 1,
    attempted_at = :now,
    attempted_by = array_append(j.attempted_by[greatest(cardinality(j.attempted_by) - 98, 1):], :client_id)
WHERE j.id = ANY (ARRAY(SELECT id FROM locked))
RETURNING j.id, j.kind, j.args, j.priority, j.attempt, j.max_attempts, nullif(j.attempted_by, ARRAY[:client_id]::text[]), j.created_at,
          j.scheduled_at, nullif(j.errors, '{}')::text[], nullif(j.metadata, '{}'), nullif(j.tags, '{}');

-- name: KeyRateStarted
-- After a keyed claim under a rate per key: each key's start times with the claim's added, the
-- last :key_rate_jobs (the rate per key) kept.
INSERT INTO {schema}.runnel_key_rate AS kr (queue, key, starts)
SELECT :queue, j.limit_key, array_fill(:now_us::bigint, ARRAY[count(*)::integer])
FROM {schema}.runnel_job j WHERE j.id = ANY (:ids::bigint[])
GROUP BY j.limit_key
ON CONFLICT (queue, key) DO UPDATE
SET starts = (SELECT array_agg(t ORDER BY t)
              FROM (SELECT t FROM unnest(kr.starts || excluded.starts) AS u(t) ORDER BY t DESC LIMIT :key_rate_jobs) AS kept);

-- name: JobClaimAtMostOnce
-- The at-most-once claim: the same selection, but the jobs are deleted, so that no completion
-- write follows and a success leaves no row. A delete writes no new row version and no index
-- entry: per row it costs about half the claim's update. The jobs locked are deleted at their
-- ctid, as JobClaim updates them. The attempt returned is the one being made; the caller adds
-- itself to attempted_by.
WITH locked AS MATERIALIZED (
    SELECT ctid FROM (
        SELECT ctid FROM (
            SELECT ctid FROM {schema}.runnel_job
            WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
              AND (priority, scheduled_at, id) > (:from_priority, :from_scheduled_at, :from_id)
              AND NOT EXISTS (SELECT 1 FROM {schema}.runnel_queue q WHERE q.name = :queue AND q.paused_at IS NOT NULL)
            ORDER BY priority, scheduled_at, id
            LIMIT :max
            FOR UPDATE SKIP LOCKED) AS ahead
        UNION ALL
        SELECT ctid FROM (
            SELECT ctid FROM {schema}.runnel_job
            WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
              AND (priority, scheduled_at, id) <= (:from_priority, :from_scheduled_at, :from_id)
              AND NOT EXISTS (SELECT 1 FROM {schema}.runnel_queue q WHERE q.name = :queue AND q.paused_at IS NOT NULL)
            ORDER BY priority, scheduled_at, id
            LIMIT :max
            FOR UPDATE SKIP LOCKED) AS behind
    ) AS both_sides
    LIMIT :max
)
DELETE FROM {schema}.runnel_job j
WHERE j.ctid = ANY (ARRAY(SELECT ctid FROM locked))
RETURNING j.id, j.kind, j.args, j.priority, j.attempt + 1, j.max_attempts, nullif(j.attempted_by, '{}'), j.created_at,
          j.scheduled_at, nullif(j.errors, '{}')::text[], nullif(j.metadata, '{}'), nullif(j.tags, '{}');

-- name: JobClaimRecover
-- The jobs of one earlier at-least-once claim of this client whose reply was lost (the connection
-- broke after the statement may have committed): still running, in the queue, started at that
-- claim's time, which is unique per client (ClaimClock), by this client. In JobClaim's columns.
-- It reads the running jobs through their index (migration 006); it runs only after a claim failed that way.
SELECT j.id, j.kind, j.args, j.priority, j.attempt, j.max_attempts, j.attempted_by, j.created_at,
       j.scheduled_at, j.errors::text[], j.metadata, j.tags
FROM {schema}.runnel_job j
WHERE j.state = 'running' AND j.queue = :queue AND j.attempted_at = :now
  AND j.attempted_by[cardinality(j.attempted_by)] = :client_id;

-- name: JobQueuesDue
-- Of queues :queues, those with a job available and due by :now: per queue, one probe of the fetch
-- index (runnel_job_fetch), which stops at the first such job.
SELECT q.name FROM unnest(:queues::text[]) AS q(name)
WHERE EXISTS (SELECT 1 FROM {schema}.runnel_job j
              WHERE j.state = 'available' AND j.queue = q.name AND j.scheduled_at <= :now);

-- name: JobCompleteMany
-- The happy path: jobs that completed with nothing else to record, one statement per batch. Only
-- a job still running in the attempt that finished is written: the attempt's number, its start
-- (unique per client, see ClaimClock) and its client must all match, so a write repeated after an
-- unclear failure, or one from a client that was presumed dead and whose job was rescued and
-- claimed again, changes nothing. The ids written come back. Times are in microseconds.
-- The state is compared as text, so that no plan can read the running jobs through their index
-- (runnel_job_running) and the batch for each: planned from statistics taken while few jobs ran
-- (an analyze just after a bulk insert), that plan is a nested loop of every running job against
-- every job of the batch, and a batch of 1,000 with 3,700 jobs running took 0.7 to 1.6 s where it
-- takes a few milliseconds. Each job of the batch is found by its primary key instead. So in
-- JobCompleteDeleteMany and JobSetStateMany.
UPDATE {schema}.runnel_job j
SET state = 'completed',
    finalized_at = timestamptz 'epoch' + batch.finalized_at / 1000000 * interval '1 second' + batch.finalized_at % 1000000 * interval '1 microsecond'
FROM unnest(:ids::bigint[], :finalized_at::bigint[], :attempts::integer[], :attempted_at::bigint[])
     AS batch(id, finalized_at, attempt, attempted_at)
WHERE j.id = batch.id AND j.state::text = 'running' AND j.attempt = batch.attempt
  AND j.attempted_at = timestamptz 'epoch' + batch.attempted_at / 1000000 * interval '1 second' + batch.attempted_at % 1000000 * interval '1 microsecond'
  AND j.attempted_by[cardinality(j.attempted_by)] = :client_id
RETURNING j.id;

-- name: JobCompleteDeleteMany
-- JobCompleteMany for a client that keeps no completed jobs (their retention is zero): each job,
-- fenced as there, is deleted rather than updated. A delete marks the row's version dead and writes
-- no new one, so no index entry either: the completion's update wrote a row version and an entry
-- in the primary key and in the finalized index, and the cleaner's delete followed. The ids
-- deleted come back.
DELETE FROM {schema}.runnel_job j
USING unnest(:ids::bigint[], :attempts::integer[], :attempted_at::bigint[]) AS batch(id, attempt, attempted_at)
WHERE j.id = batch.id AND j.state::text = 'running' AND j.attempt = batch.attempt
  AND j.attempted_at = timestamptz 'epoch' + batch.attempted_at / 1000000 * interval '1 second' + batch.attempted_at % 1000000 * interval '1 microsecond'
  AND j.attempted_by[cardinality(j.attempted_by)] = :client_id
RETURNING j.id;

-- name: JobSetStateMany
-- Every other outcome, one statement per batch, for jobs still running in the attempt the outcome
-- belongs to (as JobCompleteMany): completions with output too, which JobCompleteMany, kept as
-- simple as it can be for the happy path, does not write. A null scheduled_at leaves the job's as
-- it is; a null error appends nothing; a null output leaves the metadata alone, else it goes under
-- its key "output". A snooze (the one outcome that gives its attempt back and waits to run again:
-- an interrupted attempt, which also gives it back, is retryable) counts itself under "snoozes",
-- which Job.snoozes() reads. A job whose cancel was requested while it ran ends cancelled, at the request's
-- time, whatever else its attempt ended in short of completing: the request may have reached its
-- client only after the worker had failed. The ids written come back, and each queue in which a job
-- became available (a snooze of no time) is notified, as for an insert: a client that hears
-- notifications polls only as a safety net. Times are in microseconds, errors JSON objects, outputs JSON.
WITH updated AS (
UPDATE {schema}.runnel_job j
SET state = CASE WHEN j.cancel_requested_at IS NOT NULL AND batch.state IN ('available', 'scheduled', 'retryable')
                 THEN 'cancelled' ELSE batch.state END::{schema}.runnel_job_state,
    scheduled_at = coalesce(timestamptz 'epoch' + batch.scheduled_at / 1000000 * interval '1 second' + batch.scheduled_at % 1000000 * interval '1 microsecond', j.scheduled_at),
    finalized_at = CASE WHEN j.cancel_requested_at IS NOT NULL AND batch.state IN ('available', 'scheduled', 'retryable')
                        THEN j.cancel_requested_at
                        ELSE timestamptz 'epoch' + batch.finalized_at / 1000000 * interval '1 second' + batch.finalized_at % 1000000 * interval '1 microsecond' END,
    attempt = j.attempt + batch.attempt_delta,
    errors = CASE WHEN batch.error IS NULL THEN j.errors ELSE array_append(j.errors, batch.error::jsonb) END,
    metadata = CASE WHEN batch.output IS NOT NULL THEN jsonb_set(j.metadata, '{output}', batch.output::jsonb)
                    WHEN batch.attempt_delta < 0 AND batch.state IN ('available', 'scheduled')
                    THEN jsonb_set(j.metadata, '{snoozes}', to_jsonb(coalesce((j.metadata ->> 'snoozes')::integer, 0) + 1))
                    ELSE j.metadata END
FROM unnest(:ids::bigint[], :attempts::integer[], :attempted_at::bigint[], :client_ids::text[], :states::text[],
            :scheduled_at::bigint[], :finalized_at::bigint[], :errors::text[],
            :attempt_deltas::integer[], :outputs::text[])
     AS batch(id, attempt, attempted_at, client_id, state, scheduled_at, finalized_at, error, attempt_delta, output)
WHERE j.id = batch.id AND j.state::text = 'running' AND j.attempt = batch.attempt
  AND j.attempted_at = timestamptz 'epoch' + batch.attempted_at / 1000000 * interval '1 second' + batch.attempted_at % 1000000 * interval '1 microsecond'
  AND j.attempted_by[cardinality(j.attempted_by)] = batch.client_id
RETURNING j.id, j.state, j.queue
)
SELECT id FROM updated
WHERE (SELECT count(pg_notify(:channel, q.queue))
       FROM (SELECT DISTINCT queue FROM updated WHERE state = 'available') AS q) >= 0;

-- name: JobReinsertMany
-- Writes back jobs an at-most-once claim deleted, under their own ids, once their attempt failed
-- or was cancelled. A job whose id is present already is left alone, so a repeat changes nothing.
-- Lists travel as JSON arrays, times in microseconds.
INSERT INTO {schema}.runnel_job (id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at,
                                 attempted_by, created_at, scheduled_at, finalized_at, errors, metadata, tags)
SELECT id, kind, args::jsonb, state::{schema}.runnel_job_state, queue, priority, attempt, max_attempts,
       timestamptz 'epoch' + attempted_at / 1000000 * interval '1 second' + attempted_at % 1000000 * interval '1 microsecond',
       ARRAY(SELECT jsonb_array_elements_text(attempted_by::jsonb)),
       timestamptz 'epoch' + created_at / 1000000 * interval '1 second' + created_at % 1000000 * interval '1 microsecond',
       timestamptz 'epoch' + scheduled_at / 1000000 * interval '1 second' + scheduled_at % 1000000 * interval '1 microsecond',
       timestamptz 'epoch' + finalized_at / 1000000 * interval '1 second' + finalized_at % 1000000 * interval '1 microsecond',
       ARRAY(SELECT jsonb_array_elements(errors::jsonb)),
       metadata::jsonb,
       ARRAY(SELECT jsonb_array_elements_text(tags::jsonb))
FROM unnest(:ids::bigint[], :kinds::text[], :args::text[], :states::text[], :queues::text[],
            :priorities::smallint[], :attempts::integer[], :max_attempts::integer[],
            :attempted_at::bigint[], :attempted_by::text[], :created_at::bigint[], :scheduled_at::bigint[],
            :finalized_at::bigint[], :errors::text[], :metadata::text[], :tags::text[])
     AS x(id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by, created_at,
          scheduled_at, finalized_at, errors, metadata, tags)
ON CONFLICT (id) DO NOTHING;

-- name: JobScheduleDue
-- Due scheduled and retryable jobs become available, at most :limit of them, skipping rows another
-- scheduler holds; then one notification per queue that got jobs. Returns how many moved.
WITH due AS MATERIALIZED (
    SELECT id FROM {schema}.runnel_job
    WHERE state IN ('scheduled', 'retryable') AND scheduled_at <= :now
    ORDER BY scheduled_at, id
    LIMIT :limit
    FOR UPDATE SKIP LOCKED
),
made_available AS (
    UPDATE {schema}.runnel_job j
    SET state = 'available'
    WHERE j.id = ANY (ARRAY(SELECT id FROM due))
    RETURNING j.queue
)
SELECT count(*) FROM made_available
WHERE (SELECT count(pg_notify(:channel, q.queue)) FROM (SELECT DISTINCT queue FROM made_available) AS q) >= 0;

-- name: JobRescueMany
-- Running jobs whose client is dead (listed and still expired now), or, past the threshold, of no
-- registered client, at most a limit of them; nothing unless the lease is held. It reads the
-- running jobs through their index (migration 006); the rescuer runs it only when a client died,
-- and the threshold sweep rarely. Each job becomes retryable at once, or discarded when it is out
-- of attempts or on its last allowed rescue, with an error naming the client.
WITH stuck AS MATERIALIZED (
    SELECT j.id FROM {schema}.runnel_job j
    LEFT JOIN {schema}.runnel_client c ON c.id = j.attempted_by[cardinality(j.attempted_by)]
    WHERE j.state = 'running'
      AND ((c.id = ANY (:dead_clients::text[]) AND c.expires_at <= :now) OR (c.id IS NULL AND j.attempted_at < :stale_before))
    ORDER BY j.id
    LIMIT :limit
    FOR UPDATE OF j SKIP LOCKED
)
UPDATE {schema}.runnel_job j
SET state = CASE WHEN j.rescues + 1 >= :max_rescues OR j.attempt >= j.max_attempts THEN 'discarded'
                 ELSE 'retryable' END::{schema}.runnel_job_state,
    rescues = j.rescues + 1,
    scheduled_at = :now,
    finalized_at = CASE WHEN j.rescues + 1 >= :max_rescues OR j.attempt >= j.max_attempts THEN :now::timestamptz END,
    errors = array_append(j.errors, jsonb_build_object(
        'attempt', j.attempt,
        'at', :now_text::text,
        'error', CASE WHEN EXISTS (SELECT 1 FROM {schema}.runnel_client c
                                   WHERE c.id = j.attempted_by[cardinality(j.attempted_by)])
                      THEN 'rescued: client ' || j.attempted_by[cardinality(j.attempted_by)]
                           || ' stopped heartbeating while running this attempt'
                      ELSE 'rescued: this attempt ran longer than ' || :threshold::text || ' on client '
                           || coalesce(j.attempted_by[cardinality(j.attempted_by)], '(none)')
                           || ', which is not registered' END
                 || CASE WHEN j.rescues + 1 >= :max_rescues THEN '; discarded: rescued ' || (j.rescues + 1)
                              || ' times, so it most likely kills the process that runs it (out of memory, a native crash)'
                         WHEN j.attempt >= j.max_attempts THEN '; discarded: out of attempts'
                         ELSE '' END,
        'trace', ''))
WHERE j.id = ANY (ARRAY(SELECT id FROM stuck))
  AND EXISTS (SELECT 1 FROM {schema}.runnel_leader WHERE leader_id = :leader_id AND expires_at > :now)
RETURNING j.id, j.state, j.attempted_by[cardinality(j.attempted_by)];

-- name: JobDeleteFinalized
-- Final jobs of a state finalized at or after :from and before :before, oldest first, at most
-- :limit, through the finalized index; nothing unless the lease is held. Bounded, so that no
-- delete holds its locks for long. :from is where the previous delete of the state ended
-- (CleanCursor), so that the scan does not step over the entries of every job deleted since the
-- last vacuum; -infinity for a sweep from the oldest. Returns how many were deleted and the newest
-- finalized time among them, where the next delete starts. The link rows of the jobs deleted go
-- with them (a probe of runnel_link's primary key per job, of an empty index when no job is
-- linked), and come back as arrays: the jobs', and their workflows, batches and sequences, which
-- PostgresLinks then settles and cleans in the same transaction.
WITH doomed AS MATERIALIZED (
    SELECT id FROM {schema}.runnel_job
    WHERE state = :state::{schema}.runnel_job_state AND finalized_at >= :from AND finalized_at < :before
    ORDER BY finalized_at
    LIMIT :limit
    FOR UPDATE SKIP LOCKED
),
deleted AS (
    DELETE FROM {schema}.runnel_job
    WHERE id = ANY (ARRAY(SELECT id FROM doomed))
      AND EXISTS (SELECT 1 FROM {schema}.runnel_leader WHERE leader_id = :leader_id AND expires_at > :now)
    RETURNING id, finalized_at
),
unlinked AS (
    DELETE FROM {schema}.runnel_link l
    WHERE l.job_id = ANY (ARRAY(SELECT id FROM deleted))
    RETURNING l.job_id, l.workflow_id, l.batch_id, l.sequence_key
)
SELECT (SELECT count(*) FROM deleted), (SELECT max(finalized_at) FROM deleted),
       ARRAY(SELECT job_id FROM unlinked ORDER BY job_id),
       ARRAY(SELECT DISTINCT workflow_id FROM unlinked WHERE workflow_id IS NOT NULL ORDER BY 1),
       ARRAY(SELECT DISTINCT batch_id FROM unlinked WHERE batch_id IS NOT NULL ORDER BY 1),
       ARRAY(SELECT DISTINCT sequence_key FROM unlinked WHERE sequence_key IS NOT NULL ORDER BY 1);

-- name: JobGet
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors::text[], metadata, tags
FROM {schema}.runnel_job
WHERE id = :id;

-- name: JobGetMany
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors::text[], metadata, tags
FROM {schema}.runnel_job
WHERE id = ANY (:ids::bigint[]);

-- name: JobTableGrown
-- Whether the job table has grown past four times the pages its planner statistics last counted
-- (and past 32 pages), and this role may analyze it. A statement a connection has run a few times
-- keeps a generic plan, made for the table's size then, until the table's statistics change: the
-- claim's update, which finds its rows by id, planned while the table had a few pages, is a
-- sequential scan, and stays one as the table grows, until autovacuum next analyzes the table (it
-- looks once a minute, autovacuum_naptime). Beside 2,000 jobs/s inserted into a new table, such
-- claims read 850 to 1,100 buffers each on average over 20 s, against about 70 once it was analyzed.
SELECT pg_relation_size(c.oid) > 4 * greatest(c.relpages, 8) * current_setting('block_size')::bigint
       AND pg_has_role(c.relowner, 'USAGE')
FROM pg_class c
WHERE c.oid = '{schema}.runnel_job'::regclass;

-- name: JobTableAnalyze
-- New planner statistics for the job table, which replans the statements that use it. Skipped
-- when a vacuum or another analyze holds the table, as autovacuum's does for the length of its pass.
ANALYZE (SKIP_LOCKED) {schema}.runnel_job;
