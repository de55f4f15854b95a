-- The SQLite driver's statements about periodic jobs. Times are INTEGER microseconds since the
-- epoch, from the clients' clocks; tags are a JSON array, as in runnel_job. See the Postgres
-- driver's periodic.sql for why each statement is as it is.

-- name: PeriodicUpsert
-- Stores a definition unless it is stored already; returns a row when it stored it. Declared by
-- code (:declared_hash not null): stored when new or when code's definition changed since
-- code last declared it. From an operator (:declared_hash null): stored when new, removed, or changed. A
-- changed schedule or zone, or a removed job come back, counts its ticks from now (:now) on.
INSERT INTO runnel_periodic AS p
    (name, kind, args, queue, priority, max_attempts, tags, metadata, schedule, zone, catch_up, run_on_start,
     hash, declared_hash, fired_through, created_at, updated_at)
VALUES (:name, :kind, :args, :queue, :priority, :max_attempts, :tags, :metadata, :schedule, :zone, :catch_up,
        :run_on_start, :hash, :declared_hash, :now, :now, :now)
ON CONFLICT (name) DO UPDATE
SET kind = excluded.kind, args = excluded.args, queue = excluded.queue, priority = excluded.priority,
    max_attempts = excluded.max_attempts, tags = excluded.tags, metadata = excluded.metadata,
    schedule = excluded.schedule, zone = excluded.zone, catch_up = excluded.catch_up,
    run_on_start = excluded.run_on_start, hash = excluded.hash,
    declared_hash = coalesce(excluded.declared_hash, p.declared_hash),
    fired_through = CASE WHEN p.removed_at IS NOT NULL OR p.schedule <> excluded.schedule OR p.zone <> excluded.zone
                         THEN max(p.fired_through, excluded.fired_through)
                         ELSE p.fired_through END,
    removed_at = NULL,
    updated_at = excluded.updated_at
WHERE CASE WHEN excluded.declared_hash IS NOT NULL THEN p.declared_hash IS NOT excluded.declared_hash
           ELSE p.hash <> excluded.hash OR p.removed_at IS NOT NULL END
RETURNING run_on_start, paused_at;

-- name: PeriodicStart
-- The run on start of periodic job :name, stored just now in the same transaction.
INSERT INTO runnel_job (kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata)
SELECT kind, args, queue, priority, 'available', :now, :now, max_attempts, tags,
       json_set(metadata, '$.periodic', name, '$.start', :now_text)
FROM runnel_periodic
WHERE name = :name;

-- name: PeriodicList
SELECT name, kind, args, queue, priority, max_attempts, tags, metadata, schedule, zone, catch_up, run_on_start,
       hash, declared_hash IS NOT NULL, paused_at, last_tick, fired_through, created_at, updated_at
FROM runnel_periodic
WHERE removed_at IS NULL
ORDER BY name;

-- name: PeriodicPause
-- A job paused already keeps its paused_at.
UPDATE runnel_periodic SET paused_at = coalesce(paused_at, :now), updated_at = :now
WHERE name = :name AND removed_at IS NULL;

-- name: PeriodicResume
-- Ticks that came due while paused are dropped: they count from now on.
UPDATE runnel_periodic
SET fired_through = CASE WHEN paused_at IS NULL THEN fired_through ELSE max(fired_through, :now) END,
    paused_at = NULL, updated_at = :now
WHERE name = :name AND removed_at IS NULL;

-- name: PeriodicRemove
-- Marks the job removed; the row stays for PeriodicUpsert to compare code's declarations with.
UPDATE runnel_periodic SET removed_at = :now, paused_at = NULL, updated_at = :now
WHERE name = :name AND removed_at IS NULL;

-- name: PeriodicAdvance
-- Moves a job on from the tick it was read at (:fired_through) to the next (:tick), only while it is as read
-- (name :name, definition :hash), active, and the lease is held (:leader_id at :now); :enqueue whether the
-- tick is enqueued (PeriodicTick follows in the same transaction), else dropped.
UPDATE runnel_periodic
SET fired_through = :tick, last_tick = CASE WHEN :enqueue THEN :tick ELSE last_tick END
WHERE name = :name AND hash = :hash AND fired_through = :fired_through AND paused_at IS NULL AND removed_at IS NULL
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = :leader_id AND expires_at > :now);

-- name: PeriodicTick
-- The job of tick :tick_text (as text) of periodic job :name, available at :now.
INSERT INTO runnel_job (kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata)
SELECT kind, args, queue, priority, 'available', :now, :now, max_attempts, tags,
       json_set(metadata, '$.periodic', name, '$.tick', :tick_text)
FROM runnel_periodic
WHERE name = :name;
