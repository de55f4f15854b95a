-- Per-key limits, as Postgres's 010. SQLite has no statement triggers, and a row trigger costs
-- every insert a lookup of its queue (18% of a 1M-job bulk insert): the trigger that stores a
-- job's key exists only while some queue has a per-key limit (cluster.sql, KeyTriggerCreate).
ALTER TABLE runnel_queue ADD COLUMN key_source TEXT CHECK (key_source IN ('args', 'metadata'));
ALTER TABLE runnel_queue ADD COLUMN key_field TEXT;
ALTER TABLE runnel_queue ADD COLUMN key_limit INTEGER CHECK (key_limit >= 1);
ALTER TABLE runnel_queue ADD COLUMN key_set_at INTEGER;
ALTER TABLE runnel_queue ADD COLUMN key_weights TEXT NOT NULL DEFAULT '{}';
ALTER TABLE runnel_queue ADD COLUMN key_rate_limit INTEGER CHECK (key_rate_limit BETWEEN 1 AND 100000);
ALTER TABLE runnel_queue ADD COLUMN key_rate_period_us INTEGER CHECK (key_rate_period_us >= 1000);

CREATE TABLE runnel_key_rate (
    queue  TEXT NOT NULL,
    key    TEXT NOT NULL,
    starts TEXT NOT NULL,
    PRIMARY KEY (queue, key)
);


CREATE INDEX runnel_job_fetch_keyed ON runnel_job (queue, limit_key, priority, scheduled_at, id)
    WHERE state = 'available' AND limit_key IS NOT NULL;
