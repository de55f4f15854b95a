-- The SQLite driver's statements about periodic jobs. Times are INTEGER microseconds since the
-- epoch, from the clients' clocks; tags are a JSON array, as in runnel_job. See the Postgres
-- driver's periodic.sql for why each statement is as it is.

-- name: PeriodicUpsert
-- Stores a definition unless it is stored already; returns a row when it stored it. Declared by
-- code (?14, the declared hash, not null): stored when new or when code's definition changed since
-- code last declared it. From an operator (?14 null): stored when new, removed, or changed. A
-- changed schedule or zone, or a removed job come back, counts its ticks from now (?15) on.
-- ?1 name, ?2 kind, ?3 args, ?4 queue, ?5 priority, ?6 max_attempts, ?7 tags, ?8 metadata,
-- ?9 schedule, ?10 zone, ?11 catch_up, ?12 run_on_start, ?13 hash, ?14 declared hash or null, ?15 now.
INSERT INTO runnel_periodic AS p
    (name, kind, args, queue, priority, max_attempts, tags, metadata, schedule, zone, catch_up, run_on_start,
     hash, declared_hash, fired_through, created_at, updated_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15, ?15)
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
-- The run on start of periodic job ?1, stored just now in the same transaction. ?2 now, ?3 now as text.
INSERT INTO runnel_job (kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata)
SELECT kind, args, queue, priority, 'available', ?2, ?2, max_attempts, tags,
       json_set(metadata, '$.periodic', name, '$.start', ?3)
FROM runnel_periodic
WHERE name = ?1;

-- name: PeriodicList
SELECT name, kind, args, queue, priority, max_attempts, tags, metadata, schedule, zone, catch_up, run_on_start,
       hash, declared_hash IS NOT NULL, paused_at, last_tick, fired_through, created_at, updated_at
FROM runnel_periodic
WHERE removed_at IS NULL
ORDER BY name;

-- name: PeriodicPause
-- A job paused already keeps its paused_at. ?1 now, ?2 name.
UPDATE runnel_periodic SET paused_at = coalesce(paused_at, ?1), updated_at = ?1
WHERE name = ?2 AND removed_at IS NULL;

-- name: PeriodicResume
-- Ticks that came due while paused are dropped: they count from now on. ?1 now, ?2 name.
UPDATE runnel_periodic
SET fired_through = CASE WHEN paused_at IS NULL THEN fired_through ELSE max(fired_through, ?1) END,
    paused_at = NULL, updated_at = ?1
WHERE name = ?2 AND removed_at IS NULL;

-- name: PeriodicRemove
-- Marks the job removed; the row stays for PeriodicUpsert to compare code's declarations with.
-- ?1 now, ?2 name.
UPDATE runnel_periodic SET removed_at = ?1, paused_at = NULL, updated_at = ?1
WHERE name = ?2 AND removed_at IS NULL;

-- name: PeriodicAdvance
-- Moves a job on from the tick it was read at (?4) to the next (?1), only while it is as read
-- (name ?2, definition ?3), active, and the lease is held (?5 leader id, ?6 now); ?7 whether the
-- tick is enqueued (PeriodicTick follows in the same transaction), else dropped.
UPDATE runnel_periodic
SET fired_through = ?1, last_tick = CASE WHEN ?7 THEN ?1 ELSE last_tick END
WHERE name = ?2 AND hash = ?3 AND fired_through = ?4 AND paused_at IS NULL AND removed_at IS NULL
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = ?5 AND expires_at > ?6);

-- name: PeriodicTick
-- The job of tick ?3 (as text) of periodic job ?1, available at ?2.
INSERT INTO runnel_job (kind, args, queue, priority, state, created_at, scheduled_at, max_attempts, tags, metadata)
SELECT kind, args, queue, priority, 'available', ?2, ?2, max_attempts, tags,
       json_set(metadata, '$.periodic', name, '$.tick', ?3)
FROM runnel_periodic
WHERE name = ?1;
