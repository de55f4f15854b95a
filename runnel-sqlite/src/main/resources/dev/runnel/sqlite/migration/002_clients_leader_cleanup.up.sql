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

-- No index for the cleaner (Postgres has runnel_job_finalized): one more entry per completion cost
-- the 1M burndown's bare loop about 6%; the cleaner scans by rowid up to the last job created
-- before its cutoff instead (job.sql, JobDeleteFinalized).
