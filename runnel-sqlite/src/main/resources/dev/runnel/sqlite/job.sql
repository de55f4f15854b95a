-- The SQLite driver's job statements. Column lists must match SqliteRows.COLUMNS' order.
-- Times are microseconds since the epoch, passed in from the client's clock.

-- name: JobInsertMany
-- A whole batch in one statement: :batch is a JSON array with one array per job, in column order
-- [kind, args, state, queue, priority, max_attempts, created_at, scheduled_at, tags, metadata],
-- args, tags and metadata as JSON values. json_each keeps the array's order, so ids ascend with it.
INSERT INTO runnel_job (kind, args, state, queue, priority, max_attempts, created_at, scheduled_at, tags, metadata)
SELECT value ->> 0, value -> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7,
       value -> 8, value -> 9
FROM json_each(:batch)
ORDER BY key;

-- name: JobInsertManyUniform
-- A batch whose jobs differ only in their args (the usual bulk insert): the shared columns are
-- bound once and json_each reads only the args, :batch, a JSON array of objects. About 40% less
-- SQLite time per row than JobInsertMany, which extracts ten fields from each element.
INSERT INTO runnel_job (kind, args, state, queue, priority, max_attempts, created_at, scheduled_at, tags, metadata)
SELECT :kind, value, :state, :queue, :priority, :max_attempts, :created_at, :scheduled_at, :tags, :metadata
FROM json_each(:batch)
ORDER BY key;

-- name: JobInsertReturning
-- One job, returning its id: on a caller's connection, where ids cannot be derived from
-- last_insert_rowid, and for unique jobs. A unique job whose key is held (:unique_key, with
-- :unique_states its state mask; both NULL for a job that is not unique) is not written and returns no row: the
-- caller then reads the holder with JobUniqueHolder, in the same transaction, so the holder
-- cannot have moved on in between (the writer lock is held, or it is the caller's own).
INSERT INTO runnel_job (kind, args, state, queue, priority, max_attempts, created_at, scheduled_at, tags, metadata,
                        unique_key, unique_states)
VALUES (:kind, :args, :state, :queue, :priority, :max_attempts, :created_at, :scheduled_at, :tags, :metadata,
        :unique_key, :unique_states)
ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND unique_states IS NOT NULL
      AND (unique_states >> CASE state WHEN 'scheduled' THEN 6 WHEN 'available' THEN 5 WHEN 'running' THEN 4
           WHEN 'retryable' THEN 3 WHEN 'completed' THEN 2 WHEN 'cancelled' THEN 1 ELSE 0 END) & 1 = 1
DO NOTHING
RETURNING id;

-- name: JobUniqueHolder
-- The job that holds unique key :unique_key.
SELECT id FROM runnel_job
WHERE unique_key = :unique_key AND unique_key IS NOT NULL AND unique_states IS NOT NULL
  AND (unique_states >> CASE state WHEN 'scheduled' THEN 6 WHEN 'available' THEN 5 WHEN 'running' THEN 4
       WHEN 'retryable' THEN 3 WHEN 'completed' THEN 2 WHEN 'cancelled' THEN 1 ELSE 0 END) & 1 = 1;

-- name: LastInsertId
SELECT last_insert_rowid();

-- name: JobClaim
-- One statement claims a batch and returns it. The single writer makes IN (... LIMIT) safe here.
-- RETURNING gives no order: the driver sorts. Empty tags and metadata come back as NULL: no
-- string is made for them, under the writer lock; so does attempted_by when it holds only this
-- client (a job's first claim: :only_client is that list as JSON text), which
-- JobClaimParams.claimedRow reads as such. A job's first claim stores :only_client as it is
-- rather than building it with json_insert: 0.27 us a job less under the writer lock on
-- 1,000-job claims (4.2 against 4.5 us).
-- A paused queue (runnel_queue.paused_at) claims nothing; its row is read once per claim. Nor
-- does a queue with a global or rate limit: only JobClaimLimited claims from it.
-- It returns SqliteRows.Claimed's columns: queue, state, attempted_at and finalized_at are
-- this statement's own values, so they are not read back.
-- For a queue whose claims are big, SqliteJobs claims with JobClaimIds under the writer lock and
-- reads the rows after, with JobClaimedRead.
UPDATE runnel_job
SET state = 'running',
    attempt = attempt + 1,
    attempted_at = :now,
    -- The last 100 clients at most (JobClaimParams.MAX_ATTEMPTED_BY), as River keeps.
    attempted_by = CASE WHEN attempted_by IS NULL THEN :only_client
                        ELSE json_insert(CASE WHEN json_array_length(attempted_by) >= 100 THEN json_remove(attempted_by, '$[0]')
                                              ELSE attempted_by END, '$[#]', :client_id) END
WHERE id IN (
    SELECT id FROM runnel_job
    WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
      AND NOT EXISTS (SELECT 1 FROM runnel_queue q WHERE q.name = :queue
                      AND (q.paused_at IS NOT NULL OR q.global_limit IS NOT NULL OR q.rate_limit IS NOT NULL
                           OR q.key_limit IS NOT NULL))
    ORDER BY priority, scheduled_at, id
    LIMIT :max)
RETURNING id, kind, args, priority, attempt, max_attempts, nullif(attempted_by, :only_client), created_at,
          scheduled_at, errors, nullif(metadata, '{}'), nullif(tags, '[]');

-- name: JobClaimIds as JobClaim
-- JobClaim returning only the ids, for a claim whose rows are read after it (JobClaimedRead):
-- SQLite computes a RETURNING clause for every row as it updates it, under the writer lock, so
-- the full clause cost a big claim 12% more of the lock's time than this one (the claim's and
-- the completer's time holding it, side by side over five 1,000,000-job burndowns).
RETURNING id;

-- name: JobClaimedRead
-- The rows of a JobClaimIds, which returned only the ids under the writer lock (SqliteJobs.claimAvailable
-- claims so for a queue whose claims are big), read afterwards on a reader connection, in JobClaim's
-- columns. Only a job still running in that claim's attempt comes back: its start :now, unique per
-- client (ClaimClock), and :client_id. A job deleted in between is not worked. A job's first claim
-- left :only_client as its attempted_by, which is compared as text before any JSON is parsed.
SELECT j.id, j.kind, j.args, j.priority, j.attempt, j.max_attempts, nullif(j.attempted_by, :only_client),
       j.created_at, j.scheduled_at, j.errors, nullif(j.metadata, '{}'), nullif(j.tags, '[]')
FROM json_each(:ids) AS claimed CROSS JOIN runnel_job AS j
WHERE j.id = claimed.value AND +j.state = 'running' AND j.attempted_at = :now
  AND (j.attempted_by = :only_client OR j.attempted_by ->> '$[#-1]' = :client_id);

-- name: JobClaimLimited
-- A claim under the queue's global limit: at most the batch size, and no more than the limit less
-- the queue's jobs running under it (counted through the runnel_job_limited index, which holds
-- only those). The writer lock makes the count and the claim one step, whatever other clients do.
-- The jobs taken are marked (limit_key) so that the next claim counts them.
UPDATE runnel_job
SET state = 'running',
    attempt = attempt + 1,
    attempted_at = :now,
    attempted_by = CASE WHEN attempted_by IS NULL THEN :only_client
                        ELSE json_insert(CASE WHEN json_array_length(attempted_by) >= 100 THEN json_remove(attempted_by, '$[0]')
                                              ELSE attempted_by END, '$[#]', :client_id) END,
    limit_key = ''
WHERE id IN (
    SELECT id FROM runnel_job
    WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
    ORDER BY priority, scheduled_at, id
    LIMIT coalesce((SELECT max(0, min(:max, coalesce(q.global_limit - (
                        SELECT count(*) FROM runnel_job r
                        WHERE r.state = 'running' AND r.limit_key IS NOT NULL AND r.queue = :queue), :max)))
                    FROM runnel_queue q WHERE q.name = :queue AND q.paused_at IS NULL), 0))
RETURNING id, kind, args, priority, attempt, max_attempts, nullif(attempted_by, :only_client), created_at,
          scheduled_at, errors, nullif(metadata, '{}'), nullif(tags, '[]');

-- name: JobClaimKeyed
-- A claim under the queue's per-key limit (and its global limit, if any), in the limited claim's
-- write transaction. The keys take turns: every key's first job, then every key's second, each
-- turn by priority and time, a key's running jobs counting as turns it has had (so that claims of
-- one free slot at a time take turns too); a key of weight w (key_weights) takes w jobs a turn.
-- Under a rate per key, a key also takes no more than its rate less its starts since
-- :key_rate_since (runnel_key_rate), its rate being :key_rate_jobs (or a number no key reaches:
-- Integer.MAX_VALUE, LimitedClaim.Keyed, and then no key's starts are read).
-- As Postgres's JobClaimKeyed: heads, each key's first due job, one index probe a key (a skip scan
-- of runnel_job_fetch_keyed that finds the job with the key); open, the keys that may start a job
-- now and how many (turns); bound, the round of the last head the claim could take were it to take
-- heads alone; offered, the heads, and a key's later jobs only where its second turn comes by that
-- round, which with :max under the number of keys is seldom.
WITH RECURSIVE heads(id, k, priority, scheduled_at) AS (
    SELECT j.id, j.limit_key, j.priority, j.scheduled_at FROM runnel_job j
    WHERE j.id = (SELECT id FROM runnel_job
                  WHERE state = 'available' AND limit_key IS NOT NULL AND queue = :queue AND scheduled_at <= :now
                  ORDER BY limit_key, priority, scheduled_at, id LIMIT 1)
    UNION ALL
    SELECT j.id, j.limit_key, j.priority, j.scheduled_at FROM heads JOIN runnel_job j
    ON j.id = (SELECT c.id FROM runnel_job c
               WHERE c.state = 'available' AND c.limit_key IS NOT NULL AND c.queue = :queue AND c.limit_key > heads.k
                 AND c.scheduled_at <= :now
               ORDER BY c.limit_key, c.priority, c.scheduled_at, c.id LIMIT 1)
),
running AS MATERIALIZED (
    SELECT limit_key, count(*) AS n FROM runnel_job
    WHERE state = 'running' AND limit_key IS NOT NULL AND queue = :queue
    GROUP BY limit_key
),
room AS MATERIALIZED (
    SELECT coalesce((SELECT max(0, min(:max, coalesce(q.global_limit - (SELECT coalesce(sum(n), 0) FROM running), :max)))
                     FROM runnel_queue q WHERE q.name = :queue AND q.paused_at IS NULL), 0) AS n
),
open AS MATERIALIZED (
    SELECT *, (busy + weight) / weight AS round FROM (
        SELECT h.id, h.k, h.priority, h.scheduled_at, coalesce(r.n, 0) AS busy,
               max(1, coalesce(json_extract((SELECT key_weights FROM runnel_queue WHERE name = :queue),
                                            '$.' || json_quote(h.k)), 1)) AS weight,
               min(:key_limit - coalesce(r.n, 0),
                   :key_rate_jobs - (SELECT count(*) FROM runnel_key_rate kr, json_each(kr.starts) s
                                     WHERE :key_rate_jobs < 2147483647 AND kr.queue = :queue AND kr.key = h.k
                                       AND s.value > :key_rate_since)) AS turns
        FROM heads h LEFT JOIN running r ON r.limit_key = h.k)
    WHERE turns >= 1
),
bound AS MATERIALIZED (
    SELECT round FROM open
    ORDER BY round, priority, scheduled_at, id
    LIMIT 1 OFFSET max(0, (SELECT n FROM room) - 1)
),
offered AS (
    SELECT id, priority, scheduled_at, round FROM open
    UNION ALL
    SELECT id, priority, scheduled_at, (busy + turn + weight - 1) / weight FROM (
        SELECT j.id, j.priority, j.scheduled_at, o.busy, o.weight, o.turns,
               1 + row_number() OVER (PARTITION BY o.k ORDER BY j.priority, j.scheduled_at, j.id) AS turn
        FROM open o JOIN runnel_job j ON j.id IN (
            SELECT c.id FROM runnel_job c
            WHERE c.state = 'available' AND c.queue = :queue AND c.limit_key = o.k AND c.scheduled_at <= :now
              AND (c.priority, c.scheduled_at, c.id) > (o.priority, o.scheduled_at, o.id)
            ORDER BY c.priority, c.scheduled_at, c.id LIMIT :key_limit)
        WHERE o.turns > 1
          AND (NOT EXISTS (SELECT 1 FROM bound) OR (o.busy + 1 + o.weight) / o.weight <= (SELECT round FROM bound)))
    WHERE turn <= turns
)
UPDATE runnel_job
SET state = 'running',
    attempt = attempt + 1,
    attempted_at = :now,
    attempted_by = CASE WHEN attempted_by IS NULL THEN :only_client
                        ELSE json_insert(CASE WHEN json_array_length(attempted_by) >= 100 THEN json_remove(attempted_by, '$[0]')
                                              ELSE attempted_by END, '$[#]', :client_id) END
WHERE id IN (SELECT id FROM offered ORDER BY round, priority, scheduled_at, id LIMIT (SELECT n FROM room))
RETURNING id, kind, args, priority, attempt, max_attempts, nullif(attempted_by, :only_client), created_at,
          scheduled_at, errors, nullif(metadata, '{}'), nullif(tags, '[]');

-- name: KeyRateClaimed
-- The keys of the jobs a keyed claim took (:ids, a JSON array of ids), with how many each.
SELECT limit_key, count(*) FROM runnel_job WHERE id IN (SELECT value FROM json_each(:ids)) GROUP BY limit_key;

-- name: KeyRateRead
-- A key's kept start times (a JSON array).
SELECT starts FROM runnel_key_rate WHERE queue = :queue AND key = :key;

-- name: KeyRateWrite
-- A key's start times to keep (a JSON array).
INSERT INTO runnel_key_rate (queue, key, starts) VALUES (:queue, :key, :starts)
ON CONFLICT (queue, key) DO UPDATE SET starts = excluded.starts;

-- name: QueueRateRead
-- The rate limit of queue :queue and the start times kept for it (a JSON array), read by the limited
-- claim in its write transaction.
SELECT rate_limit, rate_period_us, rate_starts, key_limit, key_rate_limit, key_rate_period_us
FROM runnel_queue WHERE name = :queue;

-- name: QueueRateStarted
-- The start times a rate-limited queue keeps, after a limited claim started jobs. :starts (a JSON
-- array of microseconds, oldest first).
UPDATE runnel_queue SET rate_starts = :starts WHERE name = :queue;

-- name: JobClaimAtMostOnce
-- The at-most-once claim: the same selection, but the jobs are deleted, so that no completion
-- write follows and a success leaves no row. Per row a delete costs the single writer about 40%
-- less than the claim's update. The attempt returned is the one being made; the caller adds
-- itself to attempted_by.
DELETE FROM runnel_job
WHERE id IN (
    SELECT id FROM runnel_job
    WHERE state = 'available' AND queue = :queue AND scheduled_at <= :now
      AND NOT EXISTS (SELECT 1 FROM runnel_queue q WHERE q.name = :queue AND q.paused_at IS NOT NULL)
    ORDER BY priority, scheduled_at, id
    LIMIT :max)
RETURNING id, kind, args, priority, attempt + 1, max_attempts, attempted_by, created_at, scheduled_at,
          errors, nullif(metadata, '{}'), nullif(tags, '[]');

-- name: JobClaimRecover
-- The jobs of one earlier at-least-once claim of this client whose reply was lost, still running:
-- in queue :queue, started at the claim's time :now (unique per client, see ClaimClock), by client :client_id.
-- In JobClaim's columns. It scans the table; it runs only after a claim failed that way.
SELECT id, kind, args, priority, attempt, max_attempts, attempted_by, created_at, scheduled_at,
       errors, metadata, tags
FROM runnel_job
WHERE +state = 'running' AND queue = :queue AND attempted_at = :now AND attempted_by ->> '$[#-1]' = :client_id;

-- name: JobCompleteMany
-- The happy path, one statement per batch: :batch is a JSON array of [id, finalized_at, attempted_at]
-- arrays. Only a job still running in the attempt that finished is written: its
-- start, unique per client (ClaimClock), and its client name that attempt, so a repeated or late
-- write changes nothing. (The attempt's number, which Postgres compares too, adds nothing to that
-- here and would cost another parse of each element.) The ids written come back.
-- The unary + keeps the planner off the state index: with it, SQLite scanned every running job
-- for each batch (2.3k jobs/s in the 100k bench); without, it looks each id up by rowid.
-- {jsonb_each} is jsonb_each where the SQLite library has it (3.51.0 and later), json_each before
-- (SqliteConnections.jsonEachFor): jsonb_each hands each element over in SQLite's binary JSON,
-- which ->> reads without parsing the element's text again (3.2 against 3.55 us a job on
-- 1,000-job batches).
UPDATE runnel_job
SET state = 'completed', finalized_at = batch.finalized_at
FROM (SELECT value ->> 0 AS id, value ->> 1 AS finalized_at,
      value ->> 2 AS attempted_at FROM {jsonb_each}(:batch)) AS batch
WHERE runnel_job.id = batch.id AND +runnel_job.state = 'running' AND runnel_job.attempted_at = batch.attempted_at
  AND runnel_job.attempted_by ->> '$[#-1]' = :client_id
RETURNING runnel_job.id;

-- name: JobCompleteDeleteMany
-- JobCompleteMany for a client that keeps no completed jobs (their retention is zero): each job,
-- fenced as there, is deleted rather than updated, so that the cleaner has nothing to delete
-- later. The jobs are looked up from the batch, each by its rowid (CROSS JOIN keeps that order),
-- and deleted by rowid, the batch read as JobCompleteMany reads it. The ids deleted come back.
DELETE FROM runnel_job
WHERE id IN (SELECT j.id FROM {jsonb_each}(:batch) AS batch CROSS JOIN runnel_job AS j
             WHERE j.id = batch.value ->> 0 AND +j.state = 'running' AND j.attempted_at = batch.value ->> 2
               AND j.attempted_by ->> '$[#-1]' = :client_id)
RETURNING id;

-- name: JobSetState
-- Any other outcome of a job still running in the attempt :attempt started at :attempted_at by client :client_id, a
-- completion with output too. :scheduled_at, :error and :output may be null (left as they
-- are); an output goes under the metadata's key "output"; a snooze counts itself under "snoozes"
-- (see the Postgres statement). A job whose cancel was requested while
-- it ran ends cancelled, at the request's time (see the Postgres statement).
UPDATE runnel_job
SET state = CASE WHEN cancel_requested_at IS NOT NULL AND :state IN ('available', 'scheduled', 'retryable')
                 THEN 'cancelled' ELSE :state END,
    scheduled_at = coalesce(:scheduled_at, scheduled_at),
    finalized_at = CASE WHEN cancel_requested_at IS NOT NULL AND :state IN ('available', 'scheduled', 'retryable')
                        THEN cancel_requested_at ELSE :finalized_at END,
    attempt = attempt + :attempt_delta,
    errors = CASE WHEN :error IS NULL THEN errors ELSE json_insert(coalesce(errors, '[]'), '$[#]', json(:error)) END,
    metadata = CASE WHEN :output IS NOT NULL THEN json_set(metadata, '$.output', json(:output))
                    WHEN :attempt_delta < 0 AND :state IN ('available', 'scheduled')
                    THEN json_set(metadata, '$.snoozes', coalesce(metadata ->> '$.snoozes', 0) + 1)
                    ELSE metadata END
WHERE id = :id AND state = 'running' AND attempt = :attempt AND attempted_at = :attempted_at AND attempted_by ->> '$[#-1]' = :client_id;

-- name: JobReinsert
-- Writes back a job an at-most-once claim deleted, under its own id, once its attempt failed or
-- was cancelled. A job whose id is present already is left alone, so a repeat changes nothing.
INSERT INTO runnel_job (id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
                        created_at, scheduled_at, finalized_at, errors, metadata, tags)
VALUES (:id, :kind, :args, :state, :queue, :priority, :attempt, :max_attempts, :attempted_at, :attempted_by,
        :created_at, :scheduled_at, :finalized_at, :errors, :metadata, :tags)
ON CONFLICT (id) DO NOTHING;

-- name: JobScheduleDue
UPDATE runnel_job
SET state = 'available'
WHERE id IN (
    SELECT id FROM runnel_job
    WHERE state IN ('scheduled', 'retryable') AND scheduled_at <= :now
    ORDER BY scheduled_at, id
    LIMIT :limit);

-- name: JobRescueMany
-- Running jobs whose client is dead (in :dead_clients, a JSON array, and still expired at :now), or, past the
-- threshold, of no registered client (attempt started before :stale_before), at most :limit; nothing unless the
-- lease (:leader_id at :now) is held. Each becomes retryable at once, or discarded when out of
-- attempts or on its :max_rescues-th rescue, with an error naming the client. See the Postgres
-- statement for why this scans.
UPDATE runnel_job
SET state = CASE WHEN rescues + 1 >= :max_rescues OR attempt >= max_attempts THEN 'discarded' ELSE 'retryable' END,
    rescues = rescues + 1,
    scheduled_at = :now,
    finalized_at = CASE WHEN rescues + 1 >= :max_rescues OR attempt >= max_attempts THEN :now END,
    errors = json_insert(coalesce(errors, '[]'), '$[#]', json_object(
        'attempt', attempt,
        'at', :now_text,
        'error', CASE WHEN EXISTS (SELECT 1 FROM runnel_client c WHERE c.id = runnel_job.attempted_by ->> '$[#-1]')
                      THEN 'rescued: client ' || (attempted_by ->> '$[#-1]')
                           || ' stopped heartbeating while running this attempt'
                      ELSE 'rescued: this attempt ran longer than ' || :threshold || ' on client '
                           || coalesce(attempted_by ->> '$[#-1]', '(none)') || ', which is not registered' END
                 || CASE WHEN rescues + 1 >= :max_rescues THEN '; discarded: rescued ' || (rescues + 1)
                              || ' times, so it most likely kills the process that runs it (out of memory, a native crash)'
                         WHEN attempt >= max_attempts THEN '; discarded: out of attempts'
                         ELSE '' END,
        'trace', ''))
WHERE id IN (
    SELECT j.id FROM runnel_job j LEFT JOIN runnel_client c ON c.id = j.attempted_by ->> '$[#-1]'
    WHERE j.state = 'running'
      AND ((c.id IN (SELECT value FROM json_each(:dead_clients)) AND c.expires_at <= :now) OR (c.id IS NULL AND j.attempted_at < :stale_before))
    ORDER BY j.id
    LIMIT :limit)
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = :leader_id AND expires_at > :now)
RETURNING id, state, attempted_by ->> '$[#-1]';

-- name: JobDeleteFinalized
-- Final jobs of state :state finalized before :before, oldest (by id) first, at most :limit; nothing unless the
-- lease (:leader_id at :now) is held. No index serves this on SQLite: one would cost every
-- completion an entry, about 6% of the 1M burndown's bare loop. Instead the scan by rowid stops at
-- :max_id, the last job created before the cutoff (SqliteDriver.createdBefore finds it in a few rowid
-- probes): a job finalized before the cutoff was created before it, so only jobs older than the
-- retention are read, and those are mostly the ones to delete.
DELETE FROM runnel_job
WHERE id IN (
    SELECT id FROM runnel_job
    WHERE id <= :max_id AND state = :state AND finalized_at < :before
    ORDER BY id
    LIMIT :limit)
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = :leader_id AND expires_at > :now);

-- name: JobIdRange
-- Each bound in a query of its own: SQLite reads min(id) or max(id) alone from the end of the
-- rowid b-tree, but both in one SELECT scan the whole table (80 to 110 ms on a million jobs, the
-- writer held for it at every cleaner round while the 1M burndown ran).
SELECT (SELECT min(id) FROM runnel_job), (SELECT max(id) FROM runnel_job);

-- name: JobCreatedAtFrom
-- The first job from id :id on, and when it was created: one probe of SqliteDriver.createdBefore.
SELECT id, created_at FROM runnel_job WHERE id >= :id ORDER BY id LIMIT 1;

