-- Clients, the leader's lease, and what the rescuer and the cleaner need. Times are INTEGER
-- microseconds since the epoch, as in runnel_job; see the Postgres migration for the why of each.

CREATE TABLE runnel_client (
    id           TEXT    PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 255),
    started_at   INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    stopped_at   INTEGER,
    rescued_at   INTEGER,
    metadata     TEXT    NOT NULL DEFAULT '{}'
);

CREATE TABLE runnel_leader (
    name       TEXT    PRIMARY KEY DEFAULT 'default' CHECK (name = 'default'),
    leader_id  TEXT    NOT NULL,
    elected_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

ALTER TABLE runnel_job ADD COLUMN rescues INTEGER NOT NULL DEFAULT 0;

CREATE INDEX runnel_job_finalized ON runnel_job (state, finalized_at) WHERE finalized_at IS NOT NULL;
