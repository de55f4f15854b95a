-- Global limits, as Postgres's 007: the limited claim marks the jobs it takes (limit_key) and
-- counts the queue's marked running jobs through a partial index that holds nothing else.
ALTER TABLE runnel_queue ADD COLUMN global_limit INTEGER CHECK (global_limit >= 1);
ALTER TABLE runnel_job ADD COLUMN limit_key TEXT;
CREATE INDEX runnel_job_limited ON runnel_job (queue, limit_key) WHERE state = 'running' AND limit_key IS NOT NULL;
