-- Rate limits, as Postgres's 009: the start times of the queue's last rate_limit jobs, a JSON
-- array of microseconds, read and written by the limited claim under the writer lock.
ALTER TABLE runnel_queue ADD COLUMN rate_limit INTEGER CHECK (rate_limit BETWEEN 1 AND 100000);
ALTER TABLE runnel_queue ADD COLUMN rate_period_us INTEGER CHECK (rate_period_us >= 1000);
ALTER TABLE runnel_queue ADD COLUMN rate_starts TEXT NOT NULL DEFAULT '[]';
