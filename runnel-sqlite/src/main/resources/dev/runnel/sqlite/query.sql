-- The SQLite driver's listings and counts for people: the CLI, the dashboard, bulk changes by
-- query. Times are microseconds since the epoch; lists travel as JSON arrays.
--
-- Parameters of both listings: :from_id and :to_id the lowest and highest id (the id range and the
-- cursor merged, JobListScan); :states, :queues, :kinds and :tags (every one) '[]' for no
-- condition; :args, :created_from and :created_before null for none. The id range walks the rowid;
-- the other filters are checked on the way.
-- The args object matches as Postgres's jsonb containment does for top-level keys with scalar
-- values (the only form JobQuery accepts): each key present with a value of the same JSON type
-- (integer and real both numbers, compared by value) and equal.

-- name: JobListAscending
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors, metadata, tags
FROM runnel_job AS j
WHERE id BETWEEN :from_id AND :to_id
  AND (:states = '[]' OR state IN (SELECT value FROM json_each(:states)))
  AND (:queues = '[]' OR queue IN (SELECT value FROM json_each(:queues)))
  AND (:kinds = '[]' OR kind IN (SELECT value FROM json_each(:kinds)))
  AND (:tags = '[]' OR NOT EXISTS (SELECT 1 FROM json_each(:tags) AS want
                                WHERE want.value NOT IN (SELECT value FROM json_each(j.tags))))
  AND (:args IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(:args) AS want WHERE NOT coalesce(
        CASE want.type
            WHEN 'text' THEN json_type(j.args, want.fullkey) = 'text' AND json_extract(j.args, want.fullkey) = want.value
            WHEN 'integer' THEN json_type(j.args, want.fullkey) IN ('integer', 'real')
                                AND json_extract(j.args, want.fullkey) = want.value
            WHEN 'real' THEN json_type(j.args, want.fullkey) IN ('integer', 'real')
                             AND json_extract(j.args, want.fullkey) = want.value
            ELSE json_type(j.args, want.fullkey) = want.type
        END, 0)))
  AND (:created_from IS NULL OR created_at >= :created_from)
  AND (:created_before IS NULL OR created_at < :created_before)
ORDER BY id
LIMIT :limit;

-- name: JobLastId
-- The highest id, from the end of the primary key (NULL, read as 0, when the table is empty).
SELECT max(id) FROM runnel_job;

-- name: JobFirstAtOrAfter
-- The job with the lowest id at or after :id, through the rowid: how CreationIds bisects the ids
-- for a listing's creation-time window.
SELECT id, created_at FROM runnel_job WHERE id >= :id ORDER BY id LIMIT 1;

-- name: JobListDescending
-- JobListAscending walking the other way: a second statement rather than a bound direction, as
-- ORDER BY id DESC walks the rowid backwards where an expression would sort.
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors, metadata, tags
FROM runnel_job AS j
WHERE id BETWEEN :from_id AND :to_id
  AND (:states = '[]' OR state IN (SELECT value FROM json_each(:states)))
  AND (:queues = '[]' OR queue IN (SELECT value FROM json_each(:queues)))
  AND (:kinds = '[]' OR kind IN (SELECT value FROM json_each(:kinds)))
  AND (:tags = '[]' OR NOT EXISTS (SELECT 1 FROM json_each(:tags) AS want
                                WHERE want.value NOT IN (SELECT value FROM json_each(j.tags))))
  AND (:args IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(:args) AS want WHERE NOT coalesce(
        CASE want.type
            WHEN 'text' THEN json_type(j.args, want.fullkey) = 'text' AND json_extract(j.args, want.fullkey) = want.value
            WHEN 'integer' THEN json_type(j.args, want.fullkey) IN ('integer', 'real')
                                AND json_extract(j.args, want.fullkey) = want.value
            WHEN 'real' THEN json_type(j.args, want.fullkey) IN ('integer', 'real')
                             AND json_extract(j.args, want.fullkey) = want.value
            ELSE json_type(j.args, want.fullkey) = want.type
        END, 0)))
  AND (:created_from IS NULL OR created_at >= :created_from)
  AND (:created_before IS NULL OR created_at < :created_before)
ORDER BY id DESC
LIMIT :limit;

-- name: JobCountByState
-- Every job counted, by queue and state, in one scan: SQLite keeps no statistics to estimate from,
-- so its counts are always exact.
SELECT queue, state, count(*) FROM runnel_job GROUP BY queue, state ORDER BY queue, state;

-- Jobs by id.

-- name: JobGet
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors, metadata, tags
FROM runnel_job
WHERE id = :id;

-- name: JobGetMany
-- :ids is a JSON array of ids.
SELECT id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at, attempted_by,
       created_at, scheduled_at, finalized_at, errors, metadata, tags
FROM runnel_job
WHERE id IN (SELECT value FROM json_each(:ids));
