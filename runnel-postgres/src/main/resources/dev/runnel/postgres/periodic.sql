-- The Postgres driver's statements about periodic jobs. {schema} is the driver's validated, quoted
-- schema. Times are bound as timestamptz from the clients' clocks.

-- name: PeriodicUpsert
-- Stores a definition unless it is stored already, and enqueues its run on start when it was.
-- Declared by code (:declared_hash not null): stored when new, or when code's definition
-- changed since code last declared it, so an operator's edit, pause or removal stands until then.
-- From an operator (:declared_hash null): stored when new, removed, or changed. A changed schedule or zone,
-- or a removed job come back, counts its ticks from now (:now) on. Concurrent upserts of one new
-- definition (several clients starting) store it once: the others wait on the row, then find it
-- stored, so the run on start is enqueued once. Returns how many definitions were stored (0 or 1).
WITH stored AS (
    INSERT INTO {schema}.runnel_periodic AS p
        (name, kind, args, queue, priority, max_attempts, tags, metadata, schedule, zone, catch_up, run_on_start,
         hash, declared_hash, fired_through, created_at, updated_at)
    VALUES (:name, :kind, :args::jsonb, :queue, :priority, :max_attempts, :tags::text[], :metadata::jsonb,
            :schedule, :zone, :catch_up, :run_on_start, :hash, :declared_hash, :now, :now, :now)
    ON CONFLICT (name) DO UPDATE
    SET kind = excluded.kind, args = excluded.args, queue = excluded.queue, priority = excluded.priority,
        max_attempts = excluded.max_attempts, tags = excluded.tags, metadata = excluded.metadata,
        schedule = excluded.schedule, zone = excluded.zone, catch_up = excluded.catch_up,
        run_on_start = excluded.run_on_start, hash = excluded.hash,
        declared_hash = coalesce(excluded.declared_hash, p.declared_hash),
        fired_through = CASE WHEN p.removed_at IS NOT NULL OR p.schedule <> excluded.schedule
                                  OR p.zone <> excluded.zone
                             THEN greatest(p.fired_through, excluded.fired_through)
                             ELSE p.fired_through END,
        removed_at = NULL,
        updated_at = excluded.updated_at
    WHERE CASE WHEN excluded.declared_hash IS NOT NULL THEN p.declared_hash IS DISTINCT FROM excluded.declared_hash
               ELSE p.hash <> excluded.hash OR p.removed_at IS NOT NULL END
    RETURNING p.name, p.kind, p.args, p.queue, p.priority, p.max_attempts, p.tags, p.metadata, p.run_on_start,
              p.paused_at
),
started AS (
    INSERT INTO {schema}.runnel_job
        (kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata)
    SELECT s.kind, s.args, s.queue, s.priority, 'available'::{schema}.runnel_job_state, :now, :now,
           s.max_attempts, s.tags,
           s.metadata || jsonb_build_object('periodic', s.name, 'start', :now_text::text)
    FROM stored AS s
    WHERE s.run_on_start AND s.paused_at IS NULL
    RETURNING queue
)
SELECT count(*) FROM stored
WHERE (SELECT count(pg_notify(:channel, q.queue)) FROM started AS q) >= 0;

-- name: PeriodicList
SELECT name, kind, args::text, queue, priority, max_attempts, tags, metadata::text, schedule, zone, catch_up,
       run_on_start, hash, declared_hash IS NOT NULL, paused_at, last_tick, fired_through, created_at, updated_at
FROM {schema}.runnel_periodic
WHERE removed_at IS NULL
ORDER BY name;

-- name: PeriodicPause
-- A job paused already keeps its paused_at.
UPDATE {schema}.runnel_periodic SET paused_at = coalesce(paused_at, :now), updated_at = :now
WHERE name = :name AND removed_at IS NULL;

-- name: PeriodicResume
-- Ticks that came due while paused are dropped: they count from now on.
UPDATE {schema}.runnel_periodic
SET fired_through = CASE WHEN paused_at IS NULL THEN fired_through ELSE greatest(fired_through, :now) END,
    paused_at = NULL, updated_at = :now
WHERE name = :name AND removed_at IS NULL;

-- name: PeriodicRemove
-- Marks the job removed; the row stays for PeriodicUpsert to compare code's declarations with.
UPDATE {schema}.runnel_periodic SET removed_at = :now, paused_at = NULL, updated_at = :now
WHERE name = :name AND removed_at IS NULL;

-- name: PeriodicEnqueue
-- Moves a job on from the tick it was read at to the next and, when asked, inserts that tick's
-- job, in one statement: the insert reads the row the update returned, so it happens only if the
-- update matched. The update matches only while the job is as read (its definition's hash and its
-- fired_through), active, and the lease is held: a concurrent second attempt at the same tick waits
-- on the row, then finds fired_through moved on, and does nothing. Notifies the job's queue.
-- Returns how many jobs moved on (0 or 1).
WITH advanced AS (
    UPDATE {schema}.runnel_periodic AS p
    SET fired_through = :tick, last_tick = CASE WHEN :enqueue::boolean THEN :tick ELSE p.last_tick END
    WHERE p.name = :name AND p.hash = :hash AND p.fired_through = :fired_through AND p.paused_at IS NULL AND p.removed_at IS NULL
      AND EXISTS (SELECT 1 FROM {schema}.runnel_leader WHERE leader_id = :leader_id AND expires_at > :now)
    RETURNING p.name, p.kind, p.args, p.queue, p.priority, p.max_attempts, p.tags, p.metadata
),
enqueued AS (
    INSERT INTO {schema}.runnel_job
        (kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata)
    SELECT a.kind, a.args, a.queue, a.priority, 'available'::{schema}.runnel_job_state, :now, :now,
           a.max_attempts, a.tags,
           a.metadata || jsonb_build_object('periodic', a.name, 'tick', :tick_text::text)
    FROM advanced AS a
    WHERE :enqueue::boolean
    RETURNING queue
)
SELECT count(*) FROM advanced
WHERE (SELECT count(pg_notify(:channel, q.queue)) FROM enqueued AS q) >= 0;
