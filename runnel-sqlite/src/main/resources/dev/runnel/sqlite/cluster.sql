-- The SQLite driver's statements about clients and the leader's lease. Times are INTEGER
-- microseconds since the epoch, from the clients' clocks.

-- name: ClientHeartbeat
-- Registers a client or renews it.
INSERT INTO runnel_client (id, started_at, heartbeat_at, expires_at, metadata)
VALUES (:id, :now, :now, :expires_at, :metadata)
ON CONFLICT (id) DO UPDATE
SET heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at, stopped_at = NULL,
    metadata = excluded.metadata;

-- name: ClientStop
UPDATE runnel_client SET stopped_at = :now, expires_at = :now WHERE id = :id;

-- name: ClientList
SELECT id, started_at, heartbeat_at, expires_at, stopped_at, metadata FROM runnel_client ORDER BY started_at, id;

-- name: ClientListDead
-- Expired clients whose jobs were not rescued since they expired, oldest first.
SELECT id FROM runnel_client
WHERE expires_at <= :now AND (rescued_at IS NULL OR rescued_at < expires_at)
ORDER BY expires_at, id
LIMIT 1000;

-- name: ClientMarkRescued
-- :client_ids is a JSON array; :now the lease's. Only a client none of whose jobs is
-- still running (see the Postgres statement). It reads the job table whole, which happens only
-- when a client has died.
UPDATE runnel_client SET rescued_at = :now
WHERE id IN (SELECT value FROM json_each(:client_ids)) AND expires_at <= :now
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = :leader_id AND expires_at > :now)
  AND NOT EXISTS (SELECT 1 FROM runnel_job j
                  WHERE j.state = 'running' AND j.attempted_by ->> '$[#-1]' = runnel_client.id);

-- name: ClientDeleteExpired
-- Clients stopped or dead since before :expired_before whose jobs were rescued since, if the lease is held.
DELETE FROM runnel_client
WHERE expires_at < :expired_before AND rescued_at >= expires_at
  AND EXISTS (SELECT 1 FROM runnel_leader WHERE leader_id = :leader_id AND expires_at > :now);

-- name: LeaderAttemptElect
-- Takes the lease when it is free or ended, or renews it for its holder; returns a row when the
-- caller holds it.
INSERT INTO runnel_leader (name, leader_id, elected_at, expires_at)
VALUES ('default', :leader_id, :now, :expires_at)
ON CONFLICT (name) DO UPDATE
SET leader_id = excluded.leader_id,
    elected_at = CASE WHEN runnel_leader.leader_id = excluded.leader_id THEN runnel_leader.elected_at
                      ELSE excluded.elected_at END,
    expires_at = excluded.expires_at
WHERE runnel_leader.leader_id = excluded.leader_id OR runnel_leader.expires_at <= excluded.elected_at
RETURNING leader_id;

-- name: LeaderResign
DELETE FROM runnel_leader WHERE leader_id = :leader_id;

-- name: LeaderGet
SELECT leader_id, elected_at, expires_at FROM runnel_leader;

-- name: QueueRegister
-- The queues a starting client works: created, or their updated_at moved on. :queues a JSON
-- array of names.
INSERT INTO runnel_queue (name, created_at, updated_at)
SELECT value, :now, :now FROM json_each(:queues) WHERE true
ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at;

-- name: QueueList
SELECT name, created_at, updated_at, paused_at, metadata, global_limit, rate_limit, rate_period_us,
       key_source, key_field, key_limit, key_weights, key_rate_limit, key_rate_period_us
FROM runnel_queue ORDER BY name;

-- name: QueuePause
-- Pauses queue :queue (all queues when null); a queue paused already keeps its paused_at. Returns the
-- queues matched.
UPDATE runnel_queue SET paused_at = coalesce(paused_at, :now), updated_at = :now
WHERE :queue IS NULL OR name = :queue
RETURNING name;

-- name: QueueResume
-- Resumes queue :queue (all queues when null). Returns the queues matched.
UPDATE runnel_queue SET paused_at = NULL, updated_at = :now
WHERE :queue IS NULL OR name = :queue
RETURNING name;

-- name: QueueSetGlobalLimit
-- Sets queue :queue's global limit to :limit (null: none). Returns its name when it exists.
UPDATE runnel_queue SET global_limit = :limit, updated_at = :now WHERE name = :queue RETURNING name;

-- name: QueueMarkRunningLimited
-- Marks queue :queue's running jobs as counted under its limit, so that the next limited claim sees
-- them; in the same transaction as QueueSetGlobalLimit. Scans the table: rarely run.
UPDATE runnel_job SET limit_key = '' WHERE state = 'running' AND limit_key IS NULL AND queue = :queue;

-- name: QueueSetRateLimit
-- Sets queue :queue's rate limit to :rate_limit jobs per :rate_period_us microseconds (both null: none). Returns
-- its name when it exists.
UPDATE runnel_queue SET rate_limit = :rate_limit, rate_period_us = :rate_period_us,
    updated_at = :now WHERE name = :queue RETURNING name;

-- name: QueueSetKeyLimit
-- Sets queue :queue's per-key limit: :source, :field, :limit (all null: none), :weights (a JSON
-- object), and the rate per key, :rate_limit jobs per :rate_period_us microseconds (null: none).
-- Returns its name when it exists.
UPDATE runnel_queue SET key_source = :source, key_field = :field, key_limit = :limit, key_weights = :weights,
    key_rate_limit = :rate_limit,
    key_rate_period_us = :rate_period_us, key_set_at = :now, updated_at = :now
WHERE name = :queue RETURNING name;

-- name: QueueKeyWaiting
-- Gives the waiting jobs of queue :queue that have no key the key its per-key limit names (the
-- trigger gives it to jobs inserted from now on). Scans the queue's waiting jobs: run when the
-- limit is set.
UPDATE runnel_job
SET limit_key = coalesce((SELECT CASE q.key_source WHEN 'args' THEN json_extract(runnel_job.args, '$.' || q.key_field)
                                                   ELSE json_extract(runnel_job.metadata, '$.' || q.key_field) END
                          FROM runnel_queue q WHERE q.name = :queue), '')
WHERE queue = :queue AND limit_key IS NULL AND state IN ('available', 'scheduled', 'retryable')
  AND (SELECT key_limit FROM runnel_queue WHERE name = :queue) IS NOT NULL;

-- name: QueueKeyStragglers
-- QueueKeyWaiting for every queue whose per-key limit was set since :since (a job inserted in a
-- transaction open when the limit was set got no key). Run by the leader for a while after.
UPDATE runnel_job
SET limit_key = coalesce((SELECT CASE q.key_source WHEN 'args' THEN json_extract(runnel_job.args, '$.' || q.key_field)
                                                   ELSE json_extract(runnel_job.metadata, '$.' || q.key_field) END
                          FROM runnel_queue q WHERE q.name = runnel_job.queue), '')
WHERE limit_key IS NULL AND state IN ('available', 'scheduled', 'retryable')
  AND queue IN (SELECT name FROM runnel_queue WHERE key_limit IS NOT NULL AND key_set_at > :since);

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
-- Whether any queue's per-key limit was set since :since: QueueKeyStragglers scans the whole job table
-- (no index serves it), so it runs only then, not once a minute for every database.
SELECT EXISTS (SELECT 1 FROM runnel_queue WHERE key_limit IS NOT NULL AND key_set_at > :since);
