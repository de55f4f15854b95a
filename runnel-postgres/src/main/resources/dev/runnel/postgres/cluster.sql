-- The Postgres driver's statements about clients and the leader's lease. {schema} is the driver's
-- validated, quoted schema. Times are bound as timestamptz from the clients' clocks.

-- name: ClientHeartbeat
-- Registers a client or renews it.
INSERT INTO {schema}.runnel_client (id, started_at, heartbeat_at, expires_at, metadata)
VALUES (:id, :now, :now, :expires_at, :metadata::jsonb)
ON CONFLICT (id) DO UPDATE
SET heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at, stopped_at = NULL,
    metadata = excluded.metadata;

-- name: ClientStop
UPDATE {schema}.runnel_client SET stopped_at = :now, expires_at = :now WHERE id = :id;

-- name: ClientList
SELECT id, started_at, heartbeat_at, expires_at, stopped_at, metadata::text
FROM {schema}.runnel_client
ORDER BY started_at, id;

-- name: ClientListDead
-- Expired clients whose jobs were not rescued since they expired, oldest first.
SELECT id FROM {schema}.runnel_client
WHERE expires_at <= :now AND (rescued_at IS NULL OR rescued_at < expires_at)
ORDER BY expires_at, id
LIMIT 1000;

-- name: ClientMarkRescued
-- Only a client none of whose jobs is still running: the rescue that came before checked the lease
-- in a statement of its own, and a lease that lapsed for it but was renewed before this one would
-- otherwise mark the client done with its jobs left running (the running index serves the check).
UPDATE {schema}.runnel_client c SET rescued_at = :now
WHERE c.id = ANY (:client_ids::text[]) AND c.expires_at <= :now
  AND EXISTS (SELECT 1 FROM {schema}.runnel_leader WHERE leader_id = :leader_id AND expires_at > :now)
  AND NOT EXISTS (SELECT 1 FROM {schema}.runnel_job j
                  WHERE j.state = 'running' AND j.attempted_by[cardinality(j.attempted_by)] = c.id);

-- name: ClientDeleteExpired
-- Clients stopped or dead since before :expired_before whose jobs were rescued since, if the lease is held.
DELETE FROM {schema}.runnel_client
WHERE expires_at < :expired_before AND rescued_at >= expires_at
  AND EXISTS (SELECT 1 FROM {schema}.runnel_leader WHERE leader_id = :leader_id AND expires_at > :now);

-- name: LeaderAttemptElect
-- Takes the lease when it is free or ended, or renews it for its holder; returns a row when the
-- caller holds it. elected_at stays that of the holder's first election.
INSERT INTO {schema}.runnel_leader (name, leader_id, elected_at, expires_at)
VALUES ('default', :leader_id, :now, :expires_at)
ON CONFLICT (name) DO UPDATE
SET leader_id = excluded.leader_id,
    elected_at = CASE WHEN runnel_leader.leader_id = excluded.leader_id THEN runnel_leader.elected_at
                      ELSE excluded.elected_at END,
    expires_at = excluded.expires_at
WHERE runnel_leader.leader_id = excluded.leader_id OR runnel_leader.expires_at <= excluded.elected_at
RETURNING leader_id;

-- name: LeaderResign
DELETE FROM {schema}.runnel_leader WHERE leader_id = :leader_id;

-- name: LeaderGet
SELECT leader_id, elected_at, expires_at FROM {schema}.runnel_leader;

-- name: QueueRegister
-- The queues a starting client works: created, or their updated_at moved on.
INSERT INTO {schema}.runnel_queue (name, created_at, updated_at)
SELECT name, :now, :now FROM unnest(:queues::text[]) AS q(name)
ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at;

-- name: QueueList
SELECT name, created_at, updated_at, paused_at, metadata::text, global_limit, rate_limit, rate_period_us,
       key_source, key_field, key_limit, key_weights::text, key_rate_limit, key_rate_period_us
FROM {schema}.runnel_queue ORDER BY name;

-- name: QueuePause
-- Pauses queue :queue (all queues when null); a queue paused already keeps its paused_at. Returns the
-- queues matched.
UPDATE {schema}.runnel_queue SET paused_at = coalesce(paused_at, :now), updated_at = :now
WHERE :queue::text IS NULL OR name = :queue
RETURNING name;

-- name: QueueResume
-- Resumes queue :queue (all queues when null), and wakes the clients that work the queues matched
-- (one notification each, on the insert channel :channel). Returns the queues matched.
WITH resumed AS (
    UPDATE {schema}.runnel_queue SET paused_at = NULL, updated_at = :now
    WHERE :queue::text IS NULL OR name = :queue
    RETURNING name
)
SELECT name FROM resumed
WHERE (SELECT count(pg_notify(:channel, r.name)) FROM resumed AS r) >= 0;

-- name: QueueSetGlobalLimit
-- Sets queue :queue's global limit to :limit (null: none), and marks its running jobs as counted under
-- it, so that the next limited claim sees them. Jobs claimed by a
-- claim under way at this moment go unmarked, and uncounted until they finish. Scans the table
-- (no index serves running jobs): rarely run. Returns the queue's name when it exists.
WITH q AS (
    UPDATE {schema}.runnel_queue SET global_limit = :limit, updated_at = :now WHERE name = :queue RETURNING name
),
marked AS (
    UPDATE {schema}.runnel_job SET limit_key = ''
    WHERE state = 'running' AND limit_key IS NULL AND :limit::integer IS NOT NULL AND queue IN (SELECT name FROM q)
)
SELECT name FROM q;

-- name: QueueSetRateLimit
-- Sets queue :queue's rate limit to :rate_limit jobs per :rate_period_us microseconds (both null: none). The start
-- times kept so far stay, so that a changed rate counts the jobs started under the old one.
-- Returns the queue's name when it exists.
UPDATE {schema}.runnel_queue SET rate_limit = :rate_limit, rate_period_us = :rate_period_us,
    updated_at = :now WHERE name = :queue RETURNING name;

-- name: QueueSetKeyLimit
-- Sets queue :queue's per-key limit: :source, :field, :limit (all null: none), :weights (a JSON
-- object), and the rate per key, :rate_limit jobs per :rate_period_us microseconds (null: none).
-- Returns its name when it exists.
UPDATE {schema}.runnel_queue
SET key_source = :source, key_field = :field, key_limit = :limit, key_weights = :weights::jsonb,
    key_rate_limit = :rate_limit, key_rate_period_us = :rate_period_us,
    key_set_at = :now, updated_at = :now
WHERE name = :queue RETURNING name;

-- name: QueueLimitsChanged
-- Tells every client listening on :channel that a queue's limits changed (Driver.LIMITS_CHANGED,
-- :message), after the change or, in its transaction, at its commit.
SELECT pg_notify(:channel, :message);

-- name: QueueKeyWaiting
-- Gives the waiting jobs of queue :queue that have no key the key its per-key limit names (the
-- trigger gives it to jobs inserted from now on). Scans the queue's waiting jobs: run when the
-- limit is set, and again for a while after, for jobs whose insert committed only after it.
UPDATE {schema}.runnel_job j
SET limit_key = coalesce(CASE q.key_source WHEN 'args' THEN j.args ->> q.key_field ELSE j.metadata ->> q.key_field END, '')
FROM {schema}.runnel_queue q
WHERE q.name = :queue AND q.key_limit IS NOT NULL AND j.queue = q.name AND j.limit_key IS NULL
  AND j.state IN ('available', 'scheduled', 'retryable');

-- name: QueueKeyStragglers
-- QueueKeyWaiting for every queue whose per-key limit was set since :since: a job inserted in a
-- transaction that was open when the limit was set, and committed after it, got no key from the
-- trigger nor from the limit's own pass. Run by the leader now and then for a while after.
UPDATE {schema}.runnel_job j
SET limit_key = coalesce(CASE q.key_source WHEN 'args' THEN j.args ->> q.key_field ELSE j.metadata ->> q.key_field END, '')
FROM {schema}.runnel_queue q
WHERE q.key_limit IS NOT NULL AND q.key_set_at > :since AND j.queue = q.name AND j.limit_key IS NULL
  AND j.state IN ('available', 'scheduled', 'retryable');

-- name: QueueKeyRecent
-- Whether any queue's per-key limit was set since :since: QueueKeyStragglers scans waiting jobs, so it
-- runs only then, not once a minute for every cluster.
SELECT EXISTS (SELECT 1 FROM {schema}.runnel_queue WHERE key_limit IS NOT NULL AND key_set_at > :since);
