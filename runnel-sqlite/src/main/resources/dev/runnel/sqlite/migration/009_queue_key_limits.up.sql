-- Per-key limits, as Postgres's 010. SQLite has no statement triggers: this one runs per row, and
-- for a queue without a per-key limit costs one primary-key lookup of its queue.
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

CREATE TRIGGER runnel_job_key_inserted AFTER INSERT ON runnel_job
WHEN (SELECT key_limit FROM runnel_queue WHERE name = NEW.queue) IS NOT NULL
BEGIN
    UPDATE runnel_job
    SET limit_key = coalesce((SELECT CASE q.key_source WHEN 'args' THEN json_extract(NEW.args, '$.' || q.key_field)
                                                      ELSE json_extract(NEW.metadata, '$.' || q.key_field) END
                              FROM runnel_queue q WHERE q.name = NEW.queue), '')
    WHERE id = NEW.id;
END;

CREATE INDEX runnel_job_fetch_keyed ON runnel_job (queue, limit_key, priority, scheduled_at, id)
    WHERE state = 'available' AND limit_key IS NOT NULL;
