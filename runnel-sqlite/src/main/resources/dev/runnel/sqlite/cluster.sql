-- The SQLite driver's statements about clients and the leader's lease. Times are INTEGER
-- microseconds since the epoch, from the clients' clocks.

-- name: ClientHeartbeat
-- Registers a client or renews it. ?1 id, ?2 now, ?3 expires_at, ?4 metadata.
INSERT INTO runnel_client (id, started_at, heartbeat_at, expires_at, metadata)
VALUES (?1, ?2, ?2, ?3, ?4)
ON CONFLICT (id) DO UPDATE
SET heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at, stopped_at = NULL,
    metadata = excluded.metadata;

-- name: ClientStop
-- ?1 now, ?2 id.
UPDATE runnel_client SET stopped_at = ?1, expires_at = ?1 WHERE id = ?2;

-- name: ClientList
SELECT id, started_at, heartbeat_at, expires_at, stopped_at, metadata FROM runnel_client ORDER BY started_at, id;

-- name: ClientListDead
-- Expired clients whose jobs were not rescued since they expired, oldest first. ?1 now.
SELECT id FROM runnel_client
WHERE expires_at <= ?1 AND (rescued_at IS NULL OR rescued_at < expires_at)
ORDER BY expires_at, id
LIMIT 1000;

-- name: ClientMarkRescued
-- ?1 the lease's now, ?2 ids (a JSON array), ?3 leader id. Only a client none of whose jobs is
-- still running (see the Postgres statement). It reads the job table whole, which happens only
-- when a client has died.
UPDATE runnel_client SET rescued_at = ?1
WHERE id IN (SELECT value FROM json_each(?2)) AND expires_at <= ?1
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = ?3 AND expires_at > ?1)
  AND NOT EXISTS (SELECT 1 FROM runnel_job j
                  WHERE j.state = 'running' AND j.attempted_by ->> '$[#-1]' = runnel_client.id);

-- name: ClientDeleteExpired
-- Clients stopped or dead since before ?1 whose jobs were rescued since; the lease: ?2 leader id, ?3 now.
DELETE FROM runnel_client
WHERE expires_at < ?1 AND rescued_at >= expires_at
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = ?2 AND expires_at > ?3);

-- name: LeaderAttemptElect
-- Takes the lease when it is free or ended, or renews it for its holder; returns a row when the
-- caller holds it. ?1 leader id, ?2 now, ?3 expires_at.
INSERT INTO runnel_leader (name, leader_id, elected_at, expires_at)
VALUES ('default', ?1, ?2, ?3)
ON CONFLICT (name) DO UPDATE
SET leader_id = excluded.leader_id,
    elected_at = CASE WHEN runnel_leader.leader_id = excluded.leader_id THEN runnel_leader.elected_at
                      ELSE excluded.elected_at END,
    expires_at = excluded.expires_at
WHERE runnel_leader.leader_id = excluded.leader_id OR runnel_leader.expires_at <= excluded.elected_at
RETURNING leader_id;

-- name: LeaderResign
DELETE FROM runnel_leader WHERE leader_id = ?1;

-- name: LeaderGet
SELECT leader_id, elected_at, expires_at FROM runnel_leader;

-- name: QueueRegister
-- The queues a starting client works: created, or their updated_at moved on. ?1 names (a JSON
-- array), ?2 now.
INSERT INTO runnel_queue (name, created_at, updated_at)
SELECT value, ?2, ?2 FROM json_each(?1) WHERE true
ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at;

-- name: QueueList
SELECT name, created_at, updated_at, paused_at, metadata, global_limit, rate_limit, rate_period_us,
       key_source, key_field, key_limit, key_weights, key_rate_limit, key_rate_period_us
FROM runnel_queue ORDER BY name;

-- name: QueuePause
-- Pauses queue ?2 (all queues when null); a queue paused already keeps its paused_at. Returns the
-- queues matched. ?1 now.
UPDATE runnel_queue SET paused_at = coalesce(paused_at, ?1), updated_at = ?1
WHERE ?2 IS NULL OR name = ?2
RETURNING name;

-- name: QueueResume
-- Resumes queue ?2 (all queues when null). Returns the queues matched. ?1 now.
UPDATE runnel_queue SET paused_at = NULL, updated_at = ?1
WHERE ?2 IS NULL OR name = ?2
RETURNING name;

-- name: QueueSetGlobalLimit
-- Sets queue ?3's global limit to ?1 (null: none); ?2 now. Returns its name when it exists.
UPDATE runnel_queue SET global_limit = ?1, updated_at = ?2 WHERE name = ?3 RETURNING name;

-- name: QueueMarkRunningLimited
-- Marks queue ?1's running jobs as counted under its limit, so that the next limited claim sees
-- them; in the same transaction as QueueSetGlobalLimit. Scans the table: rarely run.
UPDATE runnel_job SET limit_key = '' WHERE state = 'running' AND limit_key IS NULL AND queue = ?1;

-- name: QueueSetRateLimit
-- Sets queue ?4's rate limit to ?1 jobs per ?2 microseconds (both null: none); ?3 now. Returns
-- its name when it exists.
UPDATE runnel_queue SET rate_limit = ?1, rate_period_us = ?2, updated_at = ?3 WHERE name = ?4 RETURNING name;

-- name: QueueSetKeyLimit
-- Sets queue ?5's per-key limit: ?1 source, ?2 field, ?3 limit (all null: none), ?6 weights (a
-- JSON object), ?7 ?8 the rate per key (jobs, period in microseconds; null: none); ?4 now.
-- Returns its name when it exists.
UPDATE runnel_queue SET key_source = ?1, key_field = ?2, key_limit = ?3, key_weights = ?6, key_rate_limit = ?7,
    key_rate_period_us = ?8, key_set_at = ?4, updated_at = ?4
WHERE name = ?5 RETURNING name;

-- name: QueueKeyWaiting
-- Gives the waiting jobs of queue ?1 that have no key the key its per-key limit names (the
-- trigger gives it to jobs inserted from now on). Scans the queue's waiting jobs: run when the
-- limit is set.
UPDATE runnel_job
SET limit_key = coalesce((SELECT CASE q.key_source WHEN 'args' THEN json_extract(runnel_job.args, '$.' || q.key_field)
                                                   ELSE json_extract(runnel_job.metadata, '$.' || q.key_field) END
                          FROM runnel_queue q WHERE q.name = ?1), '')
WHERE queue = ?1 AND limit_key IS NULL AND state IN ('available', 'scheduled', 'retryable')
  AND (SELECT key_limit FROM runnel_queue WHERE name = ?1) IS NOT NULL;

-- name: QueueKeyStragglers
-- QueueKeyWaiting for every queue whose per-key limit was set since ?1 (a job inserted in a
-- transaction open when the limit was set got no key). Run by the leader for a while after.
UPDATE runnel_job
SET limit_key = coalesce((SELECT CASE q.key_source WHEN 'args' THEN json_extract(runnel_job.args, '$.' || q.key_field)
                                                   ELSE json_extract(runnel_job.metadata, '$.' || q.key_field) END
                          FROM runnel_queue q WHERE q.name = runnel_job.queue), '')
WHERE limit_key IS NULL AND state IN ('available', 'scheduled', 'retryable')
  AND queue IN (SELECT name FROM runnel_queue WHERE key_limit IS NOT NULL AND key_set_at > ?1);

-- name: KeyTriggerCreate
-- Stores each inserted job's key when its queue has a per-key limit. Created when a per-key limit
-- is set, dropped when the last one is lifted (KeyTriggerDrop): a row trigger costs every insert a
-- lookup of its queue, which only queues with a per-key limit should pay.
CREATE TRIGGER IF NOT EXISTS runnel_job_key_inserted AFTER INSERT ON runnel_job
WHEN (SELECT key_limit FROM runnel_queue WHERE name = NEW.queue) IS NOT NULL
BEGIN
    UPDATE runnel_job
    SET limit_key = coalesce((SELECT CASE q.key_source WHEN 'args' THEN json_extract(NEW.args, '$.' || q.key_field)
                                                      ELSE json_extract(NEW.metadata, '$.' || q.key_field) END
                              FROM runnel_queue q WHERE q.name = NEW.queue), '')
    WHERE id = NEW.id;
END;

-- name: KeyTriggerDrop
DROP TRIGGER IF EXISTS runnel_job_key_inserted;

-- name: KeyLimitAny
SELECT EXISTS (SELECT 1 FROM runnel_queue WHERE key_limit IS NOT NULL);

-- name: QueueKeyRecent
-- Whether any queue's per-key limit was set since ?1: QueueKeyStragglers scans the whole job table
-- (no index serves it), so it runs only then, not once a minute for every database.
SELECT EXISTS (SELECT 1 FROM runnel_queue WHERE key_limit IS NOT NULL AND key_set_at > ?1);
